// The organization's per-window limit, and the configuration of limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { windowLimit } from '../../src/limits/window-limit.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import { startTestServer } from '../helpers/harness.ts';
import { rateHeaders } from './helpers.ts';

const DEFAULTS = { floor: 600, ceiling: 3000 };

test('the documented examples: floor + 5 per account + 4 * sqrt(posts of the last 24 h)', () => {
  assert.equal(windowLimit({ accounts: 0, posts24h: 0 }, DEFAULTS), 600);
  assert.equal(windowLimit({ accounts: 10, posts24h: 100 }, DEFAULTS), 690);
  assert.equal(windowLimit({ accounts: 100, posts24h: 2500 }, DEFAULTS), 1300);
  assert.equal(windowLimit({ accounts: 479, posts24h: 0 }, DEFAULTS), 2995);
  assert.equal(windowLimit({ accounts: 480, posts24h: 0 }, DEFAULTS), 3000);
  assert.equal(windowLimit({ accounts: 0, posts24h: 10_000_000 }, DEFAULTS), 3000);
});

test('always within [floor, ceiling], and never lower for more accounts or more posts', () => {
  const traffic = fc.record({ accounts: fc.nat(100_000), posts24h: fc.nat(10_000_000) });
  const bounds = fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 100_000 })).map(([floor, extra]) => ({ floor, ceiling: floor + extra }));
  fc.assert(
    fc.property(traffic, bounds, fc.nat(1000), fc.nat(100_000), (t, b, moreAccounts, morePosts) => {
      const limit = windowLimit(t, b);
      assert.ok(Number.isInteger(limit) && limit >= b.floor && limit <= b.ceiling);
      assert.ok(windowLimit({ accounts: t.accounts + moreAccounts, posts24h: t.posts24h + morePosts }, b) >= limit);
    }),
  );
});

test('limits configuration: defaults, and clear messages for bad values', () => {
  const config = loadConfig({}, NETWORK_LIST);
  assert.deepEqual(config.rateLimit, { enabled: true, floor: 600, ceiling: 3000, windowSeconds: 60, redisPrefix: 'crier:rl' });
  assert.equal(config.redisUrl, undefined);
  assert.equal(config.stripe, undefined);

  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env, NETWORK_LIST);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.message;
    }
    assert.fail(`accepted ${JSON.stringify(env)}`);
  };
  assert.match(problems({ CRIER_RATE_LIMIT_FLOOR: '100', CRIER_RATE_LIMIT_CEILING: '50' }), /CRIER_RATE_LIMIT_CEILING \(50\) must be at least CRIER_RATE_LIMIT_FLOOR \(100\)/);
  assert.match(problems({ CRIER_RATE_LIMIT_WINDOW_SECONDS: '0' }), /CRIER_RATE_LIMIT_WINDOW_SECONDS must be an integer from 1/);
  assert.match(problems({ CRIER_RATE_LIMIT_ENABLED: 'maybe' }), /CRIER_RATE_LIMIT_ENABLED must be true or false/);
  assert.match(problems({ REDIS_URL: 'localhost:6379' }), /REDIS_URL must be a redis:\/\//);
  assert.match(problems({ STRIPE_SECRET_KEY: 'sk_test_1' }), /set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
  assert.match(problems({ STRIPE_SECRET_KEY: 'pk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }), /STRIPE_SECRET_KEY must be a Stripe secret key/);
  assert.match(problems({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'secret' }), /STRIPE_WEBHOOK_SECRET must be/);
  assert.equal(loadConfig({ CRIER_RATE_LIMIT_ENABLED: 'false' }, NETWORK_LIST).rateLimit.enabled, false);
  assert.deepEqual(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }, NETWORK_LIST).stripe, { secretKey: 'sk_test_1', webhookSecret: 'whsec_1' });
});

test("with the default limits, a new org's first script does not meet 429: 600 requests a minute", async () => {
  // The harness raises the limits for every other test; here they are left at their defaults.
  const server = await startTestServer({ CRIER_RATE_LIMIT_FLOOR: undefined, CRIER_RATE_LIMIT_CEILING: undefined });
  try {
    const org = await server.createOrg();
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push(await server.request('GET', '/v1/posts', { key: org.key }));
    assert.deepEqual(new Set(answers.map((res) => res.status)), new Set([200]));
    const last = rateHeaders(answers.at(-1)!);
    assert.deepEqual([last.limit, last.remaining], [600, 500]);
  } finally {
    await server.close();
  }
});
