// The SDK's waits against a started Crier: a 429 waited out as its Retry-After says, or thrown when
// the wait is longer than the caller accepts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Crier, CrierError, type FetchLike } from '../../sdk/src/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
before(async () => {
  // Two requests per one-second window: the third of a burst meets a 429 with Retry-After.
  server = await startTestServer({ CRIER_RATE_LIMIT_FLOOR: '2', CRIER_RATE_LIMIT_CEILING: '2', CRIER_RATE_LIMIT_WINDOW_SECONDS: '1' });
});
after(() => server.close());

test('a 429 is retried after the Retry-After Crier sent, and the call succeeds', async () => {
  const org = await server.createOrg();
  const statuses: { status: number; retryAfter: string | null; at: number }[] = [];
  const watching: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    statuses.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
    return response;
  };
  const crier = new Crier({ baseUrl: server.url, apiKey: org.key, fetch: watching });
  for (let n = 0; n < 3; n += 1) await crier.accounts.list();
  const limited = statuses.findIndex((s) => s.status === 429);
  assert.ok(limited >= 0, `no 429 met: ${JSON.stringify(statuses)}`);
  const retryAfter = Number(statuses[limited]!.retryAfter);
  assert.ok(retryAfter >= 1);
  assert.equal(statuses.at(-1)!.status, 200);
  assert.ok(statuses[limited + 1]!.at - statuses[limited]!.at >= retryAfter * 1000 - 50, 'the retry waited Retry-After');
});

test('a 429 asking a longer wait than maxDelayMs is thrown as a CrierError with retryAfter', async () => {
  const org = await server.createOrg();
  const crier = new Crier({ baseUrl: server.url, apiKey: org.key, retry: { maxDelayMs: 10 } });
  const error = await Promise.all([1, 2, 3].map(() => crier.usage.get())).catch((e: unknown) => e);
  assert.ok(error instanceof CrierError);
  assert.equal(error.status, 429);
  assert.ok(error.retryAfter! >= 1);
});

