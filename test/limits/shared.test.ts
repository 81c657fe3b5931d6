// Several API processes on one database: with Redis they enforce one limit per key between them;
// with the memory store each counts on its own (the reason REDIS_URL exists).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { createApiKey } from '../../src/orgs/api-keys.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { startSecondServer, type SecondServer } from '../helpers/second-server.ts';
import { rateHeaders } from './helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL;
const LIMIT = 6;
const limits = { CRIER_RATE_LIMIT_FLOOR: String(LIMIT), CRIER_RATE_LIMIT_CEILING: String(LIMIT), CRIER_RATE_LIMIT_WINDOW_SECONDS: '60' };

interface Pair {
  first: TestServer;
  second: SecondServer;
}

async function startPair(env: Record<string, string>): Promise<Pair> {
  const first = await startTestServer({ ...limits, ...env });
  return { first, second: await startSecondServer(first, { ...limits, ...env }) };
}

async function closePair(pair: Pair | undefined): Promise<void> {
  await pair?.second.close();
  await pair?.first.close();
}

/** Alternates the requests between the two processes, as a round-robin load balancer would. */
async function alternate(pair: Pair, key: string, count: number) {
  const results: { status: number; remaining: number | undefined; limit: number | undefined }[] = [];
  for (let i = 0; i < count; i++) {
    const res = i % 2 === 0 ? await pair.first.request('GET', '/v1/posts', { key }) : await pair.second.request('GET', '/v1/posts', key);
    results.push({ status: res.status, remaining: rateHeaders(res).remaining, limit: rateHeaders(res).limit });
  }
  return results;
}

let memoryPair: Pair | undefined;
let redisPair: Pair | undefined;

before(async () => {
  memoryPair = await startPair({});
  // A prefix of our own: other test files (and other runs) may share this Redis, with the same key ids.
  if (REDIS_URL) redisPair = await startPair({ REDIS_URL, CRIER_RATE_LIMIT_REDIS_PREFIX: `crier-test:${randomBytes(6).toString('hex')}` });
});
after(async () => {
  await closePair(memoryPair);
  await closePair(redisPair);
});

test('memory store: two API processes each count on their own, so together they let twice the limit through', async () => {
  const org = await memoryPair!.first.createOrg();
  const results = await alternate(memoryPair!, org.key, 2 * LIMIT + 2);
  assert.equal(results.filter((r) => r.status === 200).length, 2 * LIMIT);
});

test(
  'Redis store: two API processes enforce one shared limit per key',
  { skip: REDIS_URL ? false : 'TEST_REDIS_URL is not set: set it to a Redis (e.g. redis://127.0.0.1:6379) to test shared counters' },
  async () => {
    const org = await redisPair!.first.createOrg();
    const results = await alternate(redisPair!, org.key, LIMIT + 3);
    assert.deepEqual(results.map((r) => r.status), [...Array(LIMIT).fill(200), 429, 429, 429]);
    // One counter: Remaining goes down by one per request whichever process answers.
    assert.deepEqual(results.map((r) => r.remaining), [5, 4, 3, 2, 1, 0, 0, 0, 0]);
    assert.ok(results.every((r) => r.limit === LIMIT));
    // Another key of the same org has its own shared counter.
    const other = await createApiKey(redisPair!.first.db, org.orgId, 'other');
    const fresh = await redisPair!.second.request('GET', '/v1/posts', other.key);
    assert.deepEqual([fresh.status, rateHeaders(fresh).remaining], [200, LIMIT - 1]);
  },
);

test('Redis unreachable: requests are still served and limited, per process, instead of failing', async () => {
  const deadPort = await freePort(); // nothing listens there
  const server = await startTestServer({ ...limits, REDIS_URL: `redis://127.0.0.1:${deadPort}` });
  try {
    const org = await server.createOrg();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await server.request('GET', '/v1/posts', { key: org.key })).status);
    assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429]);
  } finally {
    await server.close();
  }
});
