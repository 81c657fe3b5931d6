// The SDK's waits and its webhook check against a started Crier: a 429 waited out as Retry-After
// says, and verifyWebhook on a real delivery from Crier's deliverer to a local HTTPS receiver.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Crier, CrierError, verifyWebhook, type FetchLike } from '../../sdk/src/index.ts';
import { startWebhookStack, waitUntil, type WebhookStack } from '../webhooks/helpers.ts';

let stack: WebhookStack;
before(async () => {
  // Two requests per one-second window: the third of a burst meets a 429 with Retry-After.
  stack = await startWebhookStack({ CRIER_RATE_LIMIT_FLOOR: '2', CRIER_RATE_LIMIT_CEILING: '2', CRIER_RATE_LIMIT_WINDOW_SECONDS: '1' });
});
after(() => stack.close());

test('a 429 is retried after the Retry-After Crier sent, and the call succeeds', async () => {
  const org = await stack.server.createOrg();
  const statuses: { status: number; retryAfter: string | null; at: number }[] = [];
  const watching: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    statuses.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
    return response;
  };
  const crier = new Crier({ baseUrl: stack.server.url, apiKey: org.key, fetch: watching });
  for (let n = 0; n < 3; n += 1) await crier.accounts.list();
  const limited = statuses.findIndex((s) => s.status === 429);
  assert.ok(limited >= 0, `no 429 met: ${JSON.stringify(statuses)}`);
  const retryAfter = Number(statuses[limited]!.retryAfter);
  assert.ok(retryAfter >= 1);
  assert.equal(statuses.at(-1)!.status, 200);
  assert.ok(statuses[limited + 1]!.at - statuses[limited]!.at >= retryAfter * 1000 - 50, 'the retry waited Retry-After');
});

test('a 429 asking a longer wait than maxDelayMs is thrown as a CrierError with retryAfter', async () => {
  const org = await stack.server.createOrg();
  const crier = new Crier({ baseUrl: stack.server.url, apiKey: org.key, retry: { maxDelayMs: 10 } });
  const error = await Promise.all([1, 2, 3].map(() => crier.usage.get())).catch((e: unknown) => e);
  assert.ok(error instanceof CrierError);
  assert.equal(error.status, 429);
  assert.ok(error.retryAfter! >= 1);
});

test('verifyWebhook accepts a real delivery and refuses it altered, re-signed with another secret, or stale', async () => {
  const org = await stack.server.createOrg();
  const arrivals = stack.receive('/sdk-hook');
  const deliverer = await stack.startDeliverer();
  const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
  const crier = new Crier({ baseUrl: stack.server.url, apiKey: org.key, retry: { maxDelayMs: 5000 } });
  const hook = await crier.webhooks.create({ name: 'sdk', url: `${stack.receiver.url}/sdk-hook`, events: ['test'], secret });
  await crier.webhooks.test(String(hook.data.id));
  const arrival = await waitUntil(() => arrivals[0], 'the test delivery');
  await deliverer.stop();

  const verdict = verifyWebhook(arrival.body, arrival.headers, secret);
  assert.equal(verdict.ok, true, JSON.stringify(verdict));
  assert.ok(verdict.ok && verdict.id === arrival.headers['webhook-id'] && typeof verdict.payload === 'object');
  assert.equal(verifyWebhook(Buffer.from(arrival.body), new Headers(arrival.headers as Record<string, string>), secret).ok, true);

  assert.deepEqual(verifyWebhook(arrival.body + ' ', arrival.headers, secret), { ok: false, reason: 'X-Service-Signature does not match' });
  assert.equal(verifyWebhook(arrival.body, arrival.headers, 'another-secret-of-enough-length').ok, false);
  const later = Number(arrival.headers['webhook-timestamp']) * 1000 + 10 * 60_000;
  assert.match((verifyWebhook(arrival.body, arrival.headers, secret, { now: later }) as { reason: string }).reason, /tolerance/);
  const forged = { ...arrival.headers, 'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64') };
  assert.deepEqual(verifyWebhook(arrival.body, forged, secret), { ok: false, reason: 'webhook-signature does not match' });
});
