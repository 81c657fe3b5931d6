// Requests with an invalid API key are limited per client address: 30 a minute by default, then 429
// with Retry-After until the window ends, before any key lookup. Keys that authenticated lately keep
// working from a blocked address; behind a trusted proxy the address is the forwarded one; with Redis
// every API process counts against one limit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { createApiKey } from '../../src/orgs/api-keys.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/harness.ts';
import { startSecondServer } from '../helpers/second-server.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;
const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const started = await startTestServer(env);
  servers.push(started);
  return started;
}

const wrongKey = () => `crier_${randomBytes(24).toString('hex')}`;
const withKey = (s: TestServer, key: string, forwardedFor?: string) =>
  s.request('GET', '/v1/posts', { key, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

function assertBlocked(res: ApiResponse, windowSeconds: number): void {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.code, 'too_many_auth_failures');
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= windowSeconds, `Retry-After ${res.headers.get('retry-after')}`);
}

describe('failed authentications per address', () => {
  test('by default 30 invalid keys a minute are answered 401, the 31st and later 429 with Retry-After', async () => {
    const crier = await server();
    for (let i = 0; i < 30; i++) assert.equal((await withKey(crier, wrongKey())).status, 401, `failure ${i + 1}`);
    assertBlocked(await withKey(crier, wrongKey()), 60);
    assertBlocked(await withKey(crier, wrongKey()), 60);
    // No key at all is not a guess: it is still told what is missing.
    assert.equal((await crier.request('GET', '/v1/posts')).status, 401);
  });

  test('from a blocked address, a key that authenticated lately still works; a key not seen lately waits like a guess', async () => {
    const crier = await server({ CRIER_AUTH_FAILURE_LIMIT: '3', CRIER_AUTH_FAILURE_WINDOW_SECONDS: '120' });
    const org = await crier.createOrg();
    assert.equal((await withKey(crier, org.key)).status, 200);
    const unseen = await createApiKey(crier.db, org.orgId, 'unseen');
    for (let i = 0; i < 3; i++) assert.equal((await withKey(crier, wrongKey())).status, 401);
    assertBlocked(await withKey(crier, wrongKey()), 120);
    assert.equal((await withKey(crier, org.key)).status, 200);
    assertBlocked(await withKey(crier, unseen.key), 120);
  });

  test('without CRIER_TRUST_PROXY, X-Forwarded-For does not change the address counted', async () => {
    const crier = await server({ CRIER_AUTH_FAILURE_LIMIT: '2' });
    assert.equal((await withKey(crier, wrongKey(), '203.0.113.1')).status, 401);
    assert.equal((await withKey(crier, wrongKey(), '203.0.113.2')).status, 401);
    assertBlocked(await withKey(crier, wrongKey(), '203.0.113.3'), 60);
  });

  test('behind a trusted proxy, each forwarded client address is counted on its own', async () => {
    const crier = await server({ CRIER_AUTH_FAILURE_LIMIT: '2', CRIER_TRUST_PROXY: 'loopback' });
    for (let i = 0; i < 2; i++) assert.equal((await withKey(crier, wrongKey(), '203.0.113.7')).status, 401);
    assertBlocked(await withKey(crier, wrongKey(), '203.0.113.7'), 60);
    assert.equal((await withKey(crier, wrongKey(), '203.0.113.8')).status, 401, 'another client behind the same proxy is not blocked');
  });

  test('Redis: failures on two API processes add up to one limit', { skip: !REDIS_URL && 'TEST_REDIS_URL is not set' }, async () => {
    const env = { REDIS_URL: REDIS_URL!, CRIER_RATE_LIMIT_REDIS_PREFIX: `crier-test:${randomBytes(6).toString('hex')}`, CRIER_AUTH_FAILURE_LIMIT: '4' };
    const first = await server(env);
    const second = await startSecondServer(first, env);
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push(i % 2 === 0 ? (await withKey(first, wrongKey())).status : (await second.request('GET', '/v1/posts', wrongKey())).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
    } finally {
      await second.close();
    }
  });
});
