// The events the publishing engine emits, delivered for real: a post published on the X and Bluesky
// emulators reaches the receiver as post.published with the spec's data shape and the same ids and
// URLs the API shows; a post that fails everywhere is post.error; a refused token is
// account.token_expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { startWebhookDeliverer, type WebhookDeliverer } from '../../src/webhooks/worker.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { startPublishingStack, type PublishingStack } from '../helpers/publishing.ts';
import { TIME_SCALE, waitUntil } from '../helpers/webhooks.ts';

let stack: PublishingStack;
let receiver: TestHttpsServer;
let deliverer: WebhookDeliverer;
let org: TestOrg;
const received: { event: string; id: string; timestamp: string; data: any }[] = [];

before(async () => {
  // The receiver's certificate is the media server's (one per test process), so the stack's CA file covers it.
  stack = await startPublishingStack({ CRIER_WEBHOOK_TIME_SCALE: String(TIME_SCALE) });
  receiver = await startHttpsServer();
  receiver.route('/crier', (_req, res, body) => {
    received.push(JSON.parse(body.toString('utf8')));
    res.writeHead(200).end();
  });
  deliverer = await startWebhookDeliverer(stack.server.config, { db: stack.server.db, box: stack.server.box, logger: createLogger('silent') });
  org = await stack.server.createOrg();
  const res = await stack.server.request('POST', '/v1/webhooks', {
    key: org.key,
    body: { name: 'app', url: `${receiver.url}/crier`, events: ['post.published', 'post.error', 'account.token_expired'], secret: 'publishing-secret-123' },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
});
after(async () => {
  await deliverer.stop();
  await stack.close();
  await receiver.close();
});

const create = async (body: object) => {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.post;
};
const eventFor = (type: string, postId: string) => waitUntil(() => received.find((e) => e.event === type && e.data.postId === postId), `${type} for ${postId}`);

describe('publishing events reach the receiver', () => {
  test('post.published carries postId, orgId and each published account with its platform id and URL', async () => {
    const xa = await stack.addXAccount(org);
    const ba = await stack.addBlueskyAccount(org);
    const created = await create({ accounts: [xa.id, ba.id], content: 'to the webhook' });
    const post = await stack.waitForPost(org, created.id);
    const event = await eventFor('post.published', created.id);
    assert.deepEqual(event.data, {
      postId: created.id,
      orgId: created.orgId,
      socialAccounts: post.socialAccounts.map((a: any) => ({
        accountId: a.id, network: a.network, username: a.username, platformPostId: a.platformPostId, platformPostUrl: a.platformPostUrl,
      })),
    });
    for (const account of event.data.socialAccounts) {
      assert.equal(typeof account.platformPostId, 'string');
      assert.match(account.platformPostUrl, /^https:\/\/(x\.com|bsky\.app)\//);
    }
    assert.ok(Date.parse(event.timestamp) >= Date.parse(post.publishedAt), 'the event is stamped when the post completed');
  });

  test('post.error lists every account with its error when all failed', async () => {
    const ba = await stack.addBlueskyAccount(org);
    const created = await create({ accounts: [ba.id], content: 'é'.repeat(301) });
    const post = await stack.waitForPost(org, created.id);
    const event = await eventFor('post.error', created.id);
    assert.deepEqual(event.data, {
      postId: created.id,
      orgId: created.orgId,
      socialAccounts: [{ accountId: ba.id, network: 'bluesky', username: ba.username, error: post.socialAccounts[0].error }],
    });
  });

  test('account.token_expired: orgId, the numeric accountId, network, username and error', async () => {
    const xa = await stack.addXAccount(org);
    stack.x.expireToken(xa.token);
    const created = await create({ accounts: [xa.id], content: 'expired token' });
    const post = await stack.waitForPost(org, created.id);
    const event = await waitUntil(() => received.find((e) => e.event === 'account.token_expired' && e.data.accountId === xa.rawId), 'account.token_expired');
    assert.deepEqual(event.data, { orgId: created.orgId, accountId: xa.rawId, network: 'x', username: xa.username, error: post.socialAccounts[0].error });
    await eventFor('post.error', created.id);
  });
});
