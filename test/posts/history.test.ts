// GET /v1/posts/:id/attempts and /deliveries over real HTTP: a post the X emulator refuses once (503)
// then publishes shows both attempts in order; the post.published event's delivery to the org's
// webhook shows with the webhook; another org sees neither.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { startWebhookDeliverer, type WebhookDeliverer } from '../../src/webhooks/worker.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { until } from '../helpers/until.ts';

let stack: PublishingStack;
let receiver: TestHttpsServer;
let deliverer: WebhookDeliverer;
let org: TestOrg;
let webhookId: number;

before(async () => {
  // The receiver's certificate is the media server's (one per test process), so the stack's CA file covers it.
  stack = await startPublishingStack({ CRIER_WEBHOOK_TIME_SCALE: '0.01' });
  receiver = await startHttpsServer();
  receiver.route('/hook', (_req, res) => res.writeHead(200).end());
  deliverer = await startWebhookDeliverer(stack.server.config, { db: stack.server.db, box: stack.server.box, logger: createLogger('silent') });
  org = await stack.server.createOrg();
  const hook = await stack.server.request('POST', '/v1/webhooks', { key: org.key, body: { name: 'app', url: `${receiver.url}/hook`, events: ['post.published'] } });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  webhookId = hook.body.data.id;
});
after(async () => {
  await deliverer.stop();
  await stack.close();
  await receiver.close();
});

test("a post's publishing attempts in order, and its event's delivery to the org's webhook", async () => {
  const account = await stack.addXAccount(org);
  stack.x.failNext({ status: 503, method: 'POST', path: '/2/tweets' });
  const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], content: 'second time lucky' } });
  const post = await stack.waitForPost(org, created.body.post.id);
  assert.equal(post.socialAccounts[0].status, 'published');

  const attempts = await stack.server.request('GET', `/v1/posts/${post.id}/attempts`, { key: org.key });
  assert.equal(attempts.status, 200, JSON.stringify(attempts.body));
  assert.deepEqual(attempts.body.data.map((a: any) => [a.socialAccountId, a.network, a.username, a.attempt, a.outcome]), [
    [account.id, 'x', account.username, 1, 'retry'],
    [account.id, 'x', account.username, 2, 'published'],
  ]);
  assert.match(attempts.body.data[0].error, /503/);
  assert.ok(attempts.body.data.every((a: any) => a.finishedAt && a.finishedAt >= a.startedAt));

  const deliveries = await until(async () => {
    const res = await stack.server.request('GET', `/v1/posts/${post.id}/deliveries`, { key: org.key });
    return res.body.data.some((d: any) => d.succeeded) ? res.body.data : undefined;
  }, 20_000, 'the post.published delivery');
  assert.deepEqual(deliveries.map((d: any) => [d.event, d.webhookId, d.webhookName, d.statusCode, d.deliveryState]), [['post.published', webhookId, 'app', 200, 'delivered']]);
  // The same attempt as the webhook's own log shows it.
  const log = await stack.server.request('GET', `/v1/webhooks/${webhookId}/deliveries`, { key: org.key });
  const { webhookId: _w, webhookName: _n, ...attempt } = deliveries[0];
  assert.deepEqual(log.body.data.find((d: any) => d.id === attempt.id), attempt);

  const other = await stack.server.createOrg();
  for (const path of ['attempts', 'deliveries']) {
    const hidden = await stack.server.request('GET', `/v1/posts/${post.id}/${path}`, { key: other.key });
    assert.equal(hidden.status, 404, path);
  }
});
