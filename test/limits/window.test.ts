// Per-window rate limits of API keys (memory store): the headers on every /v1 response, the 429 past
// the limit, the window reset, per-key overrides and the organization's computed limit.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { setApiKeyRateLimit } from '../../src/limits/quotas.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { nowSeconds, rateHeaders } from './helpers.ts';

const WINDOW = 60;
const FLOOR = 10;
/** Floor 10, ceiling 1000, 60 s windows: an empty org gets 10 requests per window. */
let server: TestServer;
/** Floor = ceiling = 3 per 2 s window: short enough to watch a window end. */
let short: TestServer;

before(async () => {
  server = await startTestServer({ CRIER_RATE_LIMIT_FLOOR: String(FLOOR), CRIER_RATE_LIMIT_CEILING: '1000', CRIER_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW) });
  short = await startTestServer({ CRIER_RATE_LIMIT_FLOOR: '3', CRIER_RATE_LIMIT_CEILING: '3', CRIER_RATE_LIMIT_WINDOW_SECONDS: '2' });
});
after(async () => {
  await server?.close();
  await short?.close();
});

async function keyId(s: TestServer, org: TestOrg): Promise<number> {
  const { rows } = await s.db.query<{ id: number }>('SELECT id FROM api_keys WHERE org_id = $1 ORDER BY id LIMIT 1', [org.orgId]);
  return rows[0]!.id;
}

describe('headers', () => {
  test('every /v1 response of the key carries Limit >= Remaining >= 0, Remaining one less each time, and one Reset within the window', async () => {
    const org = await server.createOrg();
    await server.addAccount(org, 'x', 'headers_x');
    // Success, not-found, validation error and each resource: all count, all carry the headers.
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/posts'],
      ['GET', '/v1/social-accounts'],
      ['GET', '/v1/posts/zzzzzzzzzz'],
      ['POST', '/v1/posts', { content: 'no accounts' }],
      ['POST', '/v1/posts', { accounts: ['headers_x'], content: 'hello' }],
      ['GET', '/v1/api-keys'],
      ['GET', '/v1/posts?limit=0'],
    ];
    const seen: { status: number; limit: number; remaining: number; reset: number }[] = [];
    for (const [method, path, body] of calls) {
      const before = nowSeconds();
      const res = await server.request(method, path, { key: org.key, body });
      const after = nowSeconds();
      const h = rateHeaders(res);
      assert.ok(h.limit !== undefined && h.remaining !== undefined && h.reset !== undefined, `${method} ${path}: headers missing`);
      assert.ok(h.limit >= h.remaining && h.remaining >= 0, `${method} ${path}: limit ${h.limit}, remaining ${h.remaining}`);
      assert.ok(h.reset > before && h.reset <= Math.ceil(after) + WINDOW, `${method} ${path}: reset ${h.reset} is not within ${WINDOW} s of ${after}`);
      seen.push({ status: res.status, limit: h.limit, remaining: h.remaining, reset: h.reset });
    }
    assert.deepEqual(seen.map((s) => s.status), [200, 200, 404, 400, 200, 200, 400]);
    // 1 account, 1 post in the last 24 h: floor + 5 * 1 + round(4 * sqrt(1)) would be 19, but the
    // org's limit was computed (and cached) at its first request, when it had no post yet: 15.
    assert.ok(seen.every((s) => s.limit === FLOOR + 5));
    assert.deepEqual(seen.map((s) => s.remaining), [14, 13, 12, 11, 10, 9, 8]);
    const reset = seen[0]!.reset;
    assert.ok(seen.every((s) => Math.abs(s.reset - reset) <= 1), `one window, one reset: ${seen.map((s) => s.reset)}`);
  });

  test('refused keys (401) carry no rate-limit headers: there is no key to count', async () => {
    const res = await server.request('GET', '/v1/posts', { key: 'crier_not_a_key' });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('x-ratelimit-limit'), null);
  });

  test('each key has its own counter', async () => {
    const org = await server.createOrg();
    const second = (await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'second' } })).body.data.key as string;
    for (let i = 0; i < 3; i++) await server.request('GET', '/v1/posts', { key: org.key });
    const res = await server.request('GET', '/v1/posts', { key: second });
    assert.equal(rateHeaders(res).remaining, FLOOR - 1);
  });
});

describe('past the limit', () => {
  test('request N+1 of the window is a 429 with the exact body, Retry-After and Remaining 0; the next window serves again', async () => {
    const org = await short.createOrg();
    for (let i = 1; i <= 3; i++) {
      const ok = await short.request('GET', '/v1/posts', { key: org.key });
      assert.equal(ok.status, 200, `request ${i}`);
      assert.equal(rateHeaders(ok).remaining, 3 - i);
    }
    const refused = await short.request('GET', '/v1/posts', { key: org.key });
    assert.equal(refused.status, 429);
    assert.deepEqual(Object.keys(refused.body).sort(), ['details', 'error', 'success']);
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.error, 'API key rate limit exceeded');
    assert.match(refused.body.details, /3 requests per 2 s.*retry in [12] s/);
    const h = rateHeaders(refused);
    assert.ok(h.retryAfter === 1 || h.retryAfter === 2, `Retry-After ${h.retryAfter}`);
    assert.equal(h.limit, 3);
    assert.equal(h.remaining, 0);
    assert.ok(h.reset! * 1000 >= Date.now() - 1000, 'the reset is not in the past');

    await sleep(h.retryAfter! * 1000 + 100);
    const again = await short.request('GET', '/v1/posts', { key: org.key });
    assert.equal(again.status, 200);
    assert.equal(rateHeaders(again).remaining, 2);
  });

  test('a refused POST stores nothing', async () => {
    const org = await short.createOrg();
    await short.addAccount(org, 'x', 'limited_x');
    for (let i = 0; i < 3; i++) await short.request('GET', '/v1/posts', { key: org.key });
    const res = await short.request('POST', '/v1/posts', { key: org.key, body: { accounts: ['limited_x'], content: 'over the limit' } });
    assert.equal(res.status, 429);
    const { rows } = await short.db.query('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [org.orgId]);
    assert.equal(rows[0].n, 0);
  });
});

describe('limits that change', () => {
  test("an operator's per-key limit applies to the key's next request, lowered or raised, within the window", async () => {
    const org = await server.createOrg();
    const id = await keyId(server, org);
    for (let i = 0; i < 3; i++) assert.equal((await server.request('GET', '/v1/posts', { key: org.key })).status, 200);

    await setApiKeyRateLimit(server.db, id, 2);
    const lowered = await server.request('GET', '/v1/posts', { key: org.key });
    assert.equal(lowered.status, 429);
    assert.deepEqual([rateHeaders(lowered).limit, rateHeaders(lowered).remaining], [2, 0]);

    await setApiKeyRateLimit(server.db, id, 50);
    const raised = await server.request('GET', '/v1/posts', { key: org.key });
    assert.equal(raised.status, 200);
    // Five requests so far in this window, the refused one included.
    assert.deepEqual([rateHeaders(raised).limit, rateHeaders(raised).remaining], [50, 45]);

    await setApiKeyRateLimit(server.db, id, null);
    const back = await server.request('GET', '/v1/posts', { key: org.key });
    assert.deepEqual([rateHeaders(back).limit, rateHeaders(back).remaining], [FLOOR, FLOOR - 6]);
  });

  test("the organization's limit follows its active accounts and its posts of the last 24 hours", async () => {
    const org = await server.createOrg();
    for (let i = 0; i < 3; i++) await server.addAccount(org, 'x');
    const inactive = await server.addAccount(org, 'bluesky');
    await server.db.query('UPDATE social_accounts SET is_active = false WHERE id = $1', [inactive.rawId]);
    await server.db.query(
      `INSERT INTO posts (org_id, created_at) SELECT $1, now() - (i || ' hours')::interval FROM generate_series(0, 24) i`,
      [org.orgId],
    ); // 0..23 hours ago are in the last 24 h; 24 hours ago is not (created_at > now() - 24 h)
    await server.db.query(`INSERT INTO posts (org_id, created_at) SELECT $1, now() - interval '3 days' FROM generate_series(1, 50)`, [org.orgId]);
    await server.db.query(`INSERT INTO posts (org_id, created_at) VALUES ($1, now() - interval '10 minutes')`, [org.orgId]);
    // 3 active accounts, 25 posts in 24 h: 10 + 5 * 3 + round(4 * sqrt(25)) = 45.
    const res = await server.request('GET', '/v1/posts?limit=1', { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(rateHeaders(res).limit, 45);
  });

  test("the organization's limit is computed once a minute, not on every request", async () => {
    const org = await server.createOrg();
    const first = await server.request('GET', '/v1/posts', { key: org.key });
    for (let i = 0; i < 4; i++) await server.addAccount(org, 'x');
    const next = await server.request('GET', '/v1/posts', { key: org.key });
    assert.equal(rateHeaders(first).limit, FLOOR);
    assert.equal(rateHeaders(next).limit, FLOOR, 'four more accounts show in the limit only after the cached value expires');
  });
});
