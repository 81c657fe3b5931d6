// Fixed-quota keys: exactly N requests succeed, under any concurrency; then 429 for good. And the
// switch that turns window limits off (quotas stay).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiKey } from '../../src/orgs/api-keys.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { rateHeaders } from './helpers.ts';

/** Window limit 5 per minute: quota keys must not be held to it. */
let server: TestServer;
/** Window limits switched off (floor and ceiling 2, which would refuse the third request). */
let unlimited: TestServer;

before(async () => {
  server = await startTestServer({ CRIER_RATE_LIMIT_FLOOR: '5', CRIER_RATE_LIMIT_CEILING: '5' });
  unlimited = await startTestServer({ CRIER_RATE_LIMIT_ENABLED: 'false', CRIER_RATE_LIMIT_FLOOR: '2', CRIER_RATE_LIMIT_CEILING: '2' });
});
after(async () => {
  await server?.close();
  await unlimited?.close();
});

async function quotaUsed(s: TestServer, keyId: number): Promise<number> {
  const { rows } = await s.db.query<{ quota_used: number }>('SELECT quota_used FROM api_keys WHERE id = $1', [keyId]);
  return rows[0]!.quota_used;
}

test('200 concurrent requests on a key with a quota of 37: exactly 37 succeed, each seeing a different Remaining; the rest are 429 quota exhausted', async () => {
  const org = await server.createOrg();
  const quotaKey = await createApiKey(server.db, org.orgId, 'partner', 37);
  const responses = await Promise.all(Array.from({ length: 200 }, () => server.request('GET', '/v1/social-accounts', { key: quotaKey.key })));

  const ok = responses.filter((r) => r.status === 200);
  const refused = responses.filter((r) => r.status !== 200);
  assert.equal(ok.length, 37);
  assert.equal(refused.length, 163);
  // Each success took a distinct unit of the quota: Remaining runs over 36..0 exactly once each.
  assert.deepEqual(ok.map((r) => rateHeaders(r).remaining).sort((a, b) => a! - b!), Array.from({ length: 37 }, (_, i) => i));
  for (const res of refused) {
    assert.equal(res.status, 429);
    assert.deepEqual(Object.keys(res.body).sort(), ['details', 'error', 'success']);
    assert.equal(res.body.error, 'API key request quota exhausted');
    assert.equal(res.headers.get('retry-after'), null, 'waiting does not help: no Retry-After');
    assert.deepEqual(rateHeaders(res), { limit: 37, remaining: 0, reset: undefined, retryAfter: undefined });
  }
  assert.equal(await quotaUsed(server, quotaKey.id), 37);
});

test('a used-up quota stays used up; the other keys of the org keep working', async () => {
  const org = await server.createOrg();
  const quotaKey = await createApiKey(server.db, org.orgId, 'trial', 2);
  assert.deepEqual(rateHeaders(await server.request('GET', '/v1/posts', { key: quotaKey.key })), { limit: 2, remaining: 1, reset: undefined, retryAfter: undefined });
  assert.equal((await server.request('GET', '/v1/posts', { key: quotaKey.key })).status, 200);
  for (let i = 0; i < 3; i++) {
    const res = await server.request('POST', '/v1/posts', { key: quotaKey.key, body: { accounts: ['nobody'], content: 'x' } });
    assert.equal(res.status, 429);
    assert.equal(res.body.error, 'API key request quota exhausted');
  }
  assert.equal(await quotaUsed(server, quotaKey.id), 2, 'refused requests are not counted');
  assert.equal((await server.request('GET', '/v1/posts', { key: org.key })).status, 200);
});

test('a quota key is not held to the window limit: its quota is its only limit', async () => {
  const org = await server.createOrg();
  const quotaKey = await createApiKey(server.db, org.orgId, 'batch', 12);
  const statuses: number[] = [];
  for (let i = 0; i < 13; i++) statuses.push((await server.request('GET', '/v1/posts', { key: quotaKey.key })).status);
  assert.deepEqual(statuses, [...Array(12).fill(200), 429]);
  // The same org's window-limited key meets its limit of 5 as usual.
  const windowed: number[] = [];
  for (let i = 0; i < 6; i++) windowed.push((await server.request('GET', '/v1/posts', { key: org.key })).status);
  assert.deepEqual(windowed, [200, 200, 200, 200, 200, 429]);
});

test('a quota created through POST /v1/api-keys is counted and listed', async () => {
  const org = await server.createOrg();
  const created = await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'metered', fixedQuota: 3 } });
  assert.equal(created.status, 201);
  const key = created.body.data.key as string;
  await server.request('GET', '/v1/posts', { key });
  const listed = await server.request('GET', '/v1/api-keys', { key });
  const entry = listed.body.data.find((k: { id: string }) => k.id === created.body.data.id);
  assert.deepEqual([entry.fixedQuota, entry.quotaUsed], [3, 2]);
  assert.equal(rateHeaders(listed).remaining, 1);
});

test('with window limits switched off, keys get no rate-limit headers and no 429; quotas still hold', async () => {
  const org = await unlimited.createOrg();
  for (let i = 0; i < 5; i++) {
    const res = await unlimited.request('GET', '/v1/posts', { key: org.key });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-limit'), null);
  }
  const quotaKey = await createApiKey(unlimited.db, org.orgId, 'trial', 1);
  assert.equal((await unlimited.request('GET', '/v1/posts', { key: quotaKey.key })).status, 200);
  const refused = await unlimited.request('GET', '/v1/posts', { key: quotaKey.key });
  assert.equal(refused.status, 429);
  assert.equal(refused.body.error, 'API key request quota exhausted');
});
