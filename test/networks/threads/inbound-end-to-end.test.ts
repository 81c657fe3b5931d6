// /inbound/threads end to end: the Threads emulator sends its signed `replies` webhooks to a started
// Crier (the org's registered Threads app signs them), and the worker turns them into
// comment.received — for a thread published through Crier (postId set; an answer to one of its later
// containers is a top-level comment), once whatever the redeliveries, never for the account's own reply.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startThreadsEmulator, type ThreadsEmulator } from '../../../emulators/threads/server.ts';
import { encodeId } from '../../../src/core/ids.ts';
import { startInboundWorker, type InboundWorker } from '../../../src/inbound/worker.ts';
import { createLogger } from '../../../src/log.ts';
import { THREADS_SCOPES } from '../../../src/networks/threads/oauth.ts';
import { ThreadsClient } from '../../../src/networks/threads/client.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../../helpers/harness.ts';
import { until } from '../../helpers/until.ts';

const APP = { clientId: '1234567890', clientSecret: 'threads-app-secret' };

let th: ThreadsEmulator;
let server: TestServer;
let org: TestOrg;
let worker: InboundWorker;
let brand: { userId: string; token: string; account: TestAccount };

before(async () => {
  th = await startThreadsEmulator();
  server = await startTestServer({ CRIER_THREADS_BASE_URL: th.url, CRIER_ALLOW_LOOPBACK_FETCH: 'true' });
  org = await server.createOrg();
  const registered = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'threads', client_key: APP.clientId, client_secret: APP.clientSecret } });
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  const user = th.addUser({ username: 'brand_threads' });
  const token = th.issueLongLived(user.id, APP.clientId, THREADS_SCOPES);
  brand = { userId: user.id, token, account: await server.addAccount(org, 'threads', 'brand_threads', { networkUniqueId: user.id, accessToken: token }) };
  th.subscribeReplies({ callbackUrl: `${server.url}/inbound/threads`, appId: APP.clientId, appSecret: APP.clientSecret });
  worker = startInboundWorker({ db: server.db, box: server.box, logger: createLogger('silent'), networks: server.networks, allowLoopbackFetch: true });
});
after(async () => {
  await worker.stop();
  await server.close();
  await th.close();
});

const comments = async () =>
  (await server.db.query<{ data: any }>("SELECT data FROM events WHERE org_id = $1 AND type = 'comment.received' ORDER BY created_at, ctid", [org.orgId])).rows.map((r) => r.data);
const settled = () => until(async () => {
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inbound_deliveries WHERE processed_at IS NULL');
  return rows[0]!.n === 0 ? true : undefined;
}, 20_000, 'every inbound delivery processed');

/** A thread published as the brand, stored as Crier stores a published destination. */
async function crierThread(texts: string[]): Promise<{ postId: string; ids: string[] }> {
  const client = new ThreadsClient(th.url, brand.token, brand.userId);
  const ids: string[] = [];
  for (const [i, text] of texts.entries()) ids.push(await client.publish(await client.createContainer({ media_type: 'TEXT', text, ...(i ? { reply_to_id: ids[0] } : {}) })));
  const { rows } = await server.db.query<{ id: number }>('INSERT INTO posts (org_id, published_at) VALUES ($1, now()) RETURNING id', [org.orgId]);
  const target = await server.db.query<{ id: number }>(
    "INSERT INTO targets (org_id, post_id, account_id, status, platform_post_id, platform_post_url, published_at) VALUES ($1, $2, $3, 'published', $4, 'https://www.threads.com/t', now()) RETURNING id",
    [org.orgId, rows[0]!.id, brand.account.rawId, ids[0]],
  );
  for (const [position, id] of ids.entries()) {
    await server.db.query("INSERT INTO target_parts (target_id, position, org_id, status, platform_id) VALUES ($1, $2, $3, 'published', $4)", [target.rows[0]!.id, position, org.orgId, id]);
  }
  return { postId: encodeId(rows[0]!.id), ids };
}

test("another profile's replies become comment.received with the spec's fields; the brand's own reply does not", async () => {
  const thread = await crierThread(['Launch thread', 'part two']);
  const fan = th.addReply({ to: thread.ids[0]!, username: 'fan_one', text: 'congrats' });
  const onPartTwo = th.addReply({ to: thread.ids[1]!, username: 'fan_two', text: 'about part two' });
  const answer = th.addReply({ to: fan.id, username: 'fan_two', text: 'agreed' });
  th.addReply({ to: fan.id, username: 'brand_threads', text: 'thank you' });
  // Every reply is notified, the thread's own second part (the brand's reply to its root) too.
  const notified = () => th.webhookDeliveries().filter((d) => d.status !== null);
  await until(async () => (notified().length >= 5 ? true : undefined), 10_000, 'five notifications answered');
  assert.deepEqual(notified().map((d) => d.status), [200, 200, 200, 200, 200]);
  await settled();
  const base = { orgId: encodeId(org.orgId), network: 'threads', accountId: brand.account.id, postId: thread.postId, platformPostId: thread.ids[0], authorId: null, author: null };
  // The notifications are processed concurrently: events are compared in the order of the replies.
  const byComment = (await comments()).sort((a, b) => a.commentId.localeCompare(b.commentId));
  assert.deepEqual(byComment, [
    { ...base, commentId: fan.id, parentCommentId: null, authorUsername: 'fan_one', text: 'congrats' },
    { ...base, commentId: onPartTwo.id, parentCommentId: null, authorUsername: 'fan_two', text: 'about part two' },
    { ...base, commentId: answer.id, parentCommentId: fan.id, authorUsername: 'fan_two', text: 'agreed' },
  ]);
});

test('a redelivery is stored and acknowledged but emits nothing more; a reply on a post Crier did not publish has postId null', async () => {
  const client = new ThreadsClient(th.url, brand.token, brand.userId);
  const own = await client.publish(await client.createContainer({ media_type: 'TEXT', text: 'posted in the app' }));
  const before = (await comments()).length;
  const reply = th.addReply({ to: own, username: 'fan_three', text: 'hi' });
  await until(async () => (th.webhookDeliveries().some((d) => d.replyId === reply.id && d.status !== null) ? true : undefined), 10_000, 'notified');
  const again = await th.sendRepliesWebhook({ callbackUrl: `${server.url}/inbound/threads`, appId: APP.clientId, appSecret: APP.clientSecret, replyId: reply.id });
  assert.equal(again.status, 200);
  await settled();
  const added = (await comments()).slice(before);
  assert.deepEqual(added.map((c) => c.commentId), [reply.id], 'one event for the reply and its redelivery');
  assert.equal(added[0].postId, null);
  assert.equal(added[0].platformPostId, own);
  const wrong = await th.sendRepliesWebhook({ callbackUrl: `${server.url}/inbound/threads`, appId: APP.clientId, appSecret: 'not-the-secret', replyId: reply.id });
  assert.equal(wrong.status, 403);
});
