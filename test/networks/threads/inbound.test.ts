// Threads' `replies` webhook through Crier's `inbound` capability: the emulator POSTs the signed
// notification of a reply to a plain node:http server standing for Crier's /inbound/threads; what that
// server received is checked (signature with the app secret, the account named by root_post.owner_id)
// and parsed into comment items — another profile's reply, an answer to a reply, the account's own
// reply, a redelivery. Also Meta's subscription handshake and deliveries that carry no reply.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { InboundRequest } from '../../../src/networks/capabilities.ts';
import { metaSignature, metaSignatureValid } from '../../../src/networks/meta/webhooks.ts';
import { until } from '../../helpers/until.ts';
import { engagementSetup, type EngagementSetup, type Profile } from './setup.ts';

const APP = { appId: '1234567890', appSecret: 'threads-app-secret' };

describe('Threads inbound replies webhook', () => {
  let s: EngagementSetup;
  let ada: Profile;
  let server: Server;
  let callbackUrl: string;
  const received: InboundRequest[] = [];

  before(async () => {
    s = await engagementSetup();
    ada = s.profile('ada_inbound');
    // Crier's /inbound/threads as a plain server: it keeps each request as the capability reads it.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url!, 'http://localhost');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
        const request: InboundRequest = { method: req.method!, headers, query: Object.fromEntries(url.searchParams), rawBody: Buffer.concat(chunks) };
        received.push(request);
        const valid = metaSignatureValid(request, APP.appSecret);
        res.writeHead(valid ? 200 : 403).end(valid ? 'EVENT_RECEIVED' : 'bad signature');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/inbound/threads`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await s.close();
  });

  const inbound = () => s.caps.inbound!;
  const deliver = async (replyId: string) => {
    const sent = await s.th.sendRepliesWebhook({ callbackUrl, ...APP, replyId });
    assert.equal(sent.status, 200, sent.body);
    return received.at(-1)!;
  };

  it('another profile\'s reply on the account\'s post: signed, addressed to the account, a comment item', async () => {
    const post = await s.publish(ada, ['webhook me']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'hello ada' });
    const request = await deliver(bob.id);
    assert.equal(request.method, 'POST');
    assert.equal(request.headers['x-hub-signature-256'], metaSignature(request.rawBody, APP.appSecret));
    assert.equal(inbound().verify(request, APP.appSecret), true);
    assert.equal(inbound().verify(request, 'another-secret'), false);
    assert.equal(inbound().verify({ ...request, rawBody: Buffer.from(request.rawBody.toString().replace('hello', 'HELLO')) }, APP.appSecret), false);
    const body = JSON.parse(request.rawBody.toString());
    assert.deepEqual([body.app_id, body.topic, body.values.field, body.values.value.root_post.owner_id], [APP.appId, 'moderate', 'replies', ada.userId]);
    assert.deepEqual(inbound().recipients(request), [ada.userId]);
    assert.deepEqual(inbound().parse(request), [{
      kind: 'comment', accountNetworkId: ada.userId, platformPostId: post.root.platformId, commentId: bob.id, parentCommentId: null,
      authorId: null, authorUsername: 'bob', text: 'hello ada', byAccount: false,
    }]);
  });

  it('an answer to a reply names its parent; the account\'s own reply is byAccount; a redelivery repeats the item', async () => {
    const post = await s.publish(ada, ['a conversation']);
    const bob = s.th.addReply({ to: post.root.platformId, username: 'bob', text: 'question' });
    const carol = s.th.addReply({ to: bob.id, username: 'carol', text: 'me too' });
    const [answer] = inbound().parse(await deliver(carol.id));
    assert.deepEqual([answer!.kind === 'comment' && answer.parentCommentId, answer!.kind === 'comment' && answer.byAccount], [bob.id, false]);

    const { replyId } = await s.caps.comments!.reply(ada.session, post, 'my answer', bob.id);
    const own = inbound().parse(await deliver(replyId));
    assert.deepEqual(own.map((i) => i.kind === 'comment' && [i.commentId, i.parentCommentId, i.authorUsername, i.byAccount]), [[replyId, bob.id, 'ada_inbound', true]]);

    const first = received.length;
    const again = await deliver(carol.id);
    assert.equal(received.length, first + 1);
    assert.deepEqual(inbound().parse(again), [answer]);
  });

  it('with the app subscribed, every new reply is notified as it is published: Crier\'s own API reply and others\'', async () => {
    const post = await s.publish(ada, ['live notifications']);
    s.th.subscribeReplies({ callbackUrl, ...APP });
    try {
      const first = received.length;
      const { replyId } = await s.caps.comments!.reply(ada.session, post, 'from Crier');
      const fan = s.th.addReply({ to: replyId, username: 'fan', text: 'from the app' });
      await until(() => (s.th.webhookDeliveries().filter((d) => d.replyId === replyId || d.replyId === fan.id).length === 2 ? true : undefined), 5000, 'two deliveries');
      assert.ok(s.th.webhookDeliveries().every((d) => d.status === 200));
      const items = received.slice(first).flatMap((request) => (inbound().verify(request, APP.appSecret) ? inbound().parse(request) : []));
      assert.deepEqual(items.map((i) => i.kind === 'comment' && [i.commentId, i.parentCommentId, i.authorUsername, i.byAccount]).sort(), [
        [fan.id, replyId, 'fan', false], [replyId, null, 'ada_inbound', true],
      ].sort());
    } finally {
      s.th.subscribeReplies(null);
    }
  });

  it('Meta\'s subscription handshake: the challenge for a token Crier issued, 403 otherwise, nothing for a delivery', () => {
    const get = (query: Record<string, string>): InboundRequest => ({ method: 'GET', headers: {}, query, rawBody: Buffer.alloc(0) });
    const isOurs = (token: string) => token === 'crier-verify-token';
    assert.deepEqual(inbound().handshake(get({ 'hub.mode': 'subscribe', 'hub.verify_token': 'crier-verify-token', 'hub.challenge': '1158201444' }), isOurs), { status: 200, body: '1158201444' });
    assert.equal(inbound().handshake(get({ 'hub.mode': 'subscribe', 'hub.verify_token': 'guessed', 'hub.challenge': '1' }), isOurs)!.status, 403);
    assert.equal(inbound().handshake({ method: 'POST', headers: {}, query: {}, rawBody: Buffer.from('{}') }, isOurs), undefined);
  });

  it('deliveries without a reply give nothing: other fields, a list of values, bodies that are not JSON', () => {
    const post = (body: unknown): InboundRequest => ({ method: 'POST', headers: {}, query: {}, rawBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) });
    const mention = post({ app_id: '1', topic: 'interaction', target_id: '9', time: 1, values: { value: { id: '9', username: 'x', text: '@ada' }, field: 'mentions' } });
    assert.deepEqual(inbound().recipients(mention), []);
    assert.deepEqual(inbound().parse(mention), []);
    const listed = post({ values: [
      { field: 'replies', value: { id: '77', username: 'zed', text: 'listed', replied_to: { id: '70' }, root_post: { id: '70', owner_id: ada.userId, username: 'ada_inbound' } } },
      { field: 'replies', value: { id: '78', username: 'zed' } },
    ] });
    assert.deepEqual(inbound().recipients(listed), [ada.userId]);
    assert.deepEqual(inbound().parse(listed).map((i) => i.kind === 'comment' && [i.commentId, i.parentCommentId]), [['77', null]]);
    assert.deepEqual(inbound().recipients(post('not json')), []);
    assert.deepEqual(inbound().parse(post('{"values": 3}')), []);
  });
});
