// verifyWebhook on a real delivery: Crier's deliverer signs a test event to a local HTTPS receiver.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Crier, verifyWebhook } from '../../sdk/src/index.ts';
import { startWebhookStack, waitUntil, type WebhookStack } from '../helpers/webhooks.ts';

let stack: WebhookStack;
before(async () => {
  stack = await startWebhookStack();
});
after(() => stack.close());

test('verifyWebhook accepts a real delivery and refuses it altered, re-signed with another secret, or stale', async () => {
  const org = await stack.server.createOrg();
  const arrivals = stack.receive('/sdk-hook');
  await stack.startDeliverer(); // stopped by stack.close()
  const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
  const crier = new Crier({ baseUrl: stack.server.url, apiKey: org.key, retry: { maxDelayMs: 5000 } });
  const hook = await crier.webhooks.create({ name: 'sdk', url: `${stack.receiver.url}/sdk-hook`, events: ['test'], secret });
  await crier.webhooks.test(String(hook.data.id));
  await waitUntil(() => arrivals[0], 'the test delivery');
  const arrival = arrivals[0]!;

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
