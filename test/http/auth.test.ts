// Authentication (401) and the subscription gate (402) on every /v1 endpoint.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SUBSCRIPTION_STATUSES } from '../../src/orgs/subscription.ts';
import { setSubscriptionStatus } from '../../src/orgs/orgs.ts';
import { revokeApiKey } from '../../src/orgs/api-keys.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let postId: string;

const ENDPOINTS: [string, () => string, unknown?][] = [
  ['GET', () => '/v1/posts'],
  ['POST', () => '/v1/posts', { accounts: ['auth_x'], content: 'hi' }],
  ['GET', () => `/v1/posts/${postId}`],
  ['GET', () => '/v1/social-accounts'],
];

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  await server.addAccount(org, 'x', 'auth_x');
  postId = (await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: ['auth_x'], content: 'hi' } })).body.post.id;
});
after(() => server.close());

describe('401', () => {
  for (const [method, path, body] of ENDPOINTS) {
    test(`${method} ${path.name || 'endpoint'} without a key, with a wrong key, with a malformed header`, async () => {
      const cases: Record<string, string>[] = [{}, { authorization: 'Bearer crier_wrong' }, { authorization: org.key }, { authorization: 'Basic abc' }];
      for (const headers of cases) {
        const res = await server.request(method, path(), { headers, body });
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.deepEqual(Object.keys(res.body).sort(), ['error', 'success']);
        assert.equal(res.body.success, false);
        assert.match(res.body.error, /(invalid|missing) API key/i);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      }
    });
  }

  test('a revoked key is refused; the others of the org keep working', async () => {
    const { createApiKey } = await import('../../src/orgs/api-keys.ts');
    const extra = await createApiKey(server.db, org.orgId, 'ci');
    assert.equal((await server.request('GET', '/v1/posts', { key: extra.key })).status, 200);
    assert.equal(await revokeApiKey(server.db, String(extra.id)), true);
    assert.equal((await server.request('GET', '/v1/posts', { key: extra.key })).status, 401);
    assert.equal((await server.request('GET', '/v1/posts', { key: org.key })).status, 200);
  });

  test('concurrent requests with many keys share lookups, and each is answered as its own key', async () => {
    // Key lookups of requests in flight together go to the database as one statement: each request
    // must still get its own org, and a revoked or unknown key its 401, whatever it was batched with.
    const { createApiKey } = await import('../../src/orgs/api-keys.ts');
    const other = await server.createOrg();
    const otherPost = (await server.request('POST', '/v1/posts', { key: other.key, body: { accounts: [(await server.addAccount(other, 'x', 'other_x')).id], content: 'theirs' } })).body.post.id;
    const revoked = await createApiKey(server.db, org.orgId, 'to revoke');
    assert.equal(await revokeApiKey(server.db, String(revoked.id)), true);
    const keys = Array.from({ length: 40 }, (_, i) => [org.key, other.key, org.key, other.key, revoked.key, 'crier_unknown'][i % 6]!);
    const answers = await Promise.all(keys.map((key) => server.request('GET', `/v1/posts/${otherPost}`, { key })));
    keys.forEach((key, i) => {
      const expected = key === other.key ? 200 : key === org.key ? 404 : 401;
      assert.equal(answers[i]!.status, expected, `request ${i}`);
      if (expected === 200) assert.equal(answers[i]!.body.post.id, otherPost);
    });
  });

  test('the Bearer scheme is case-insensitive', async () => {
    const res = await server.request('GET', '/v1/posts', { headers: { authorization: `bearer ${org.key}` } });
    assert.equal(res.status, 200);
  });
});

describe('402 subscription gate', () => {
  for (const status of SUBSCRIPTION_STATUSES.filter((s) => s !== 'active')) {
    test(`"${status}" closes every endpoint; "active" reopens them`, async () => {
      await setSubscriptionStatus(server.db, org.orgId, status);
      try {
        for (const [method, path, body] of ENDPOINTS) {
          const res = await server.request(method, path(), { key: org.key, body });
          assert.equal(res.status, 402, `${method} ${path()}`);
          assert.equal(res.body.success, false);
          assert.equal(res.body.code, 'subscription_inactive');
          assert.equal(typeof res.body.error, 'string');
          assert.match(res.body.billingUrl, /^https?:\/\//);
        }
      } finally {
        await setSubscriptionStatus(server.db, org.orgId, 'active');
      }
      for (const [method, path, body] of ENDPOINTS) {
        const res = await server.request(method, path(), { key: org.key, body });
        assert.ok(res.status < 300, `${method} ${path()} after reactivation: ${res.status}`);
      }
    });
  }

  test("the org's own billing URL is used when set", async () => {
    await server.db.query("UPDATE orgs SET billing_url = 'https://billing.example.com/acme', subscription_status = 'past_due' WHERE id = $1", [org.orgId]);
    try {
      const res = await server.request('GET', '/v1/posts', { key: org.key });
      assert.equal(res.body.billingUrl, 'https://billing.example.com/acme');
    } finally {
      await setSubscriptionStatus(server.db, org.orgId, 'active');
    }
  });

  test('a 402 carries the key\'s X-RateLimit-* headers; a fixed quota is shown there, not spent', async () => {
    const { createApiKey } = await import('../../src/orgs/api-keys.ts');
    const quotaKey = await createApiKey(server.db, org.orgId, 'quota', 3);
    await setSubscriptionStatus(server.db, org.orgId, 'past_due');
    try {
      const res = await server.request('GET', '/v1/posts', { key: org.key });
      assert.equal(res.status, 402);
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.match(res.headers.get(header) ?? '', /^\d+$/, header);
      for (let i = 0; i < 4; i++) {
        const refused = await server.request('GET', '/v1/posts', { key: quotaKey.key });
        assert.equal(refused.status, 402);
        assert.equal(refused.headers.get('x-ratelimit-limit'), '3');
        assert.equal(refused.headers.get('x-ratelimit-remaining'), '3');
      }
    } finally {
      await setSubscriptionStatus(server.db, org.orgId, 'active');
    }
    const served = [];
    for (let i = 0; i < 4; i++) served.push((await server.request('GET', '/v1/posts', { key: quotaKey.key })).status);
    assert.deepEqual(served, [200, 200, 200, 429], 'the whole quota is still there after the 402s');
  });

  test("the default billingUrl is a page saying what the 402 means and how an operator changes the status", async () => {
    const unpaid = await server.createOrg('unpaid');
    const { billingUrl } = (await server.request('GET', '/v1/posts', { key: unpaid.key })).body;
    assert.equal(billingUrl, server.config.billingUrl);
    // billingUrl is under PUBLIC_BASE_URL, not where this test server listens: same path, this server.
    const page = await fetch(`${server.url}${new URL(billingUrl).pathname}`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    const text = await page.text();
    for (const expected of ['402 subscription_inactive', 'past_due', 'crier org subscription &lt;org&gt; active']) assert.ok(text.includes(expected), expected);
  });

  test('a 402 stores nothing', async () => {
    await setSubscriptionStatus(server.db, org.orgId, 'canceled');
    const before = await server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId]);
    await server.request('POST', '/v1/posts', { key: org.key, body: { accounts: ['auth_x'], content: 'blocked' } });
    const afterCount = await server.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId]);
    await setSubscriptionStatus(server.db, org.orgId, 'active');
    assert.equal(afterCount.rows[0].n, before.rows[0].n);
  });
});
