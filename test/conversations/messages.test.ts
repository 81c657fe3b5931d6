// Instagram direct messages end to end over real HTTP: the Facebook emulator sends signed messaging
// webhooks to a started Crier (a contact's message, a quick-reply tap, echoes of Crier's sends and of
// messages written in the Instagram app), and the API sends through the emulator's Send API (inside
// the 24-hour window, or as the one private reply to a comment). Every event is checked field by
// field against the spec's data shapes, and what the emulator received in order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeId } from '../../src/core/ids.ts';
import { startInboundStack, type InboundStack } from '../helpers/inbound.ts';
import { until } from '../helpers/until.ts';

let s: InboundStack;
before(async () => {
  s = await startInboundStack();
});
after(() => s.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const api = (method: string, path: string, body?: unknown) => s.server.request(method, path, { key: s.org.key, ...(body !== undefined ? { body } : {}) });
const orgId = () => encodeId(s.org.orgId);

async function conversationWith(contactId: string): Promise<any> {
  const listed = await api('GET', `/v1/conversations?social_account_id=${s.account.id}`);
  assert.equal(listed.status, 200);
  return listed.body.data.find((c: any) => c.participantId === contactId);
}

describe('receiving', () => {
  test("a contact's first message: conversation.started then message.received with the sender looked up on arrival; stored once despite a redelivery", async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'buyer', followerCount: 88, followsAccount: true, followedByAccount: true, isVerified: false });
    const { message } = await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'Is this in stock? 🧦' });
    await s.fb.instagramMessaging.redeliver();
    await s.settled();
    const conversation = await conversationWith(contact.id);
    assert.ok(conversation, 'the conversation is listed');
    const events = (await s.events()).filter((e) => e.data.conversationId === conversation.id);
    assert.deepEqual(events.map((e) => e.type), ['conversation.started', 'message.received']);
    assert.deepEqual(events[0]!.data, { conversationId: conversation.id, orgId: orgId(), network: 'instagram', participantId: contact.id });
    const stored = await api('GET', `/v1/conversations/${conversation.id}/messages`);
    assert.equal(stored.body.data.length, 1);
    assert.deepEqual(events[1]!.data, {
      conversationId: conversation.id,
      messageId: stored.body.data[0].id,
      orgId: orgId(),
      network: 'instagram',
      content: 'Is this in stock? 🧦',
      senderId: contact.id,
      sentAt: new Date(message.timestamp).toISOString(),
      sender: { isFollower: true, isFollowedByAccount: true, followerCount: 88, isVerified: false },
    });
    assert.equal('interaction' in events[1]!.data, false, 'interaction only for a quick-reply tap');
    assert.equal(stored.body.data[0].platformMessageId, message.mid);
    assert.equal(conversation.lastInboundAt, new Date(message.timestamp).toISOString());
  });

  test('an account connected without the messaging scope receives no direct messages', async () => {
    const { account, igId } = await s.addInstagram('no_dms', false);
    const contact = s.fb.instagramMessaging.addContact();
    const { delivery } = await s.fb.instagramMessaging.message({ igUserId: igId, from: contact.id, text: 'hello?' });
    assert.equal(delivery.status, 200);
    await s.settled();
    const listed = await api('GET', `/v1/conversations?social_account_id=${account.id}`);
    assert.deepEqual(listed.body.data, []);
  });
});

describe('sending', () => {
  test('an answer with quick replies: message.sent (api), its echo not emitted again, and the tap comes back as an interaction', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'tapper' });
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'sizes?' });
    await s.settled();
    const conversation = await conversationWith(contact.id);
    const sent = await api('POST', `/v1/conversations/${conversation.id}/messages`, {
      text: 'Which size?', quickReplies: [{ id: 'size-s', title: 'Small' }, { id: 'size-m', title: 'Medium' }],
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const message = sent.body.data.message;
    assert.equal(message.status, 'sent');
    assert.equal(message.direction, 'out');
    const call = s.fb.instagramMessaging.calls().filter((c) => c.method === 'POST').at(-1)!;
    // Facebook Login path: sent through the Page (Messenger Platform send-message), with the Page token.
    assert.equal(call.path, '/me/messages');
    assert.deepEqual(call.body, {
      recipient: { id: contact.id },
      message: { text: 'Which size?', quick_replies: [{ content_type: 'text', title: 'Small', payload: 'size-s' }, { content_type: 'text', title: 'Medium', payload: 'size-m' }] },
    });
    const emulated = s.fb.instagramMessaging.messages(s.igId).find((m) => m.mid === message.platformMessageId);
    assert.ok(emulated, 'the platform message id is the one the Send API gave');
    // The emulator delivers the send's echo shortly after answering.
    await until(() => (s.fb.instagramMessaging.deliveries().some((d) => d.body.includes(message.platformMessageId.replace(/\//g, '\\/'))) ? true : undefined));
    await s.settled();
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'Medium', quickReplyPayload: 'size-m' });
    await s.settled();
    const events = (await s.events()).filter((e) => e.data.conversationId === conversation.id);
    assert.deepEqual(events.map((e) => e.type), ['conversation.started', 'message.received', 'message.sent', 'message.received']);
    assert.deepEqual(events[2]!.data, { conversationId: conversation.id, messageId: message.id, orgId: orgId(), network: 'instagram', platformMessageId: message.platformMessageId, source: 'api' });
    assert.deepEqual(events[3]!.data.interaction, { type: 'quick_reply', id: 'size-m' });
    assert.equal(events[3]!.data.content, 'Medium');
    const stored = await api('GET', `/v1/conversations/${conversation.id}/messages`);
    assert.deepEqual(stored.body.data.map((m: any) => [m.direction, m.text]), [['in', 'sizes?'], ['out', 'Which size?'], ['in', 'Medium']]);
    assert.deepEqual(stored.body.data[2].interaction, { type: 'quick_reply', id: 'size-m' });
    assert.deepEqual(stored.body.data[1].quickReplies, [{ id: 'size-s', title: 'Small' }, { id: 'size-m', title: 'Medium' }]);
  });

  test('a message written in the Instagram app is relayed as message.sent (native_app, messageId null, content), not stored', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'app_chat' });
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'hi' });
    const { message } = await s.fb.instagramMessaging.appMessage({ igUserId: s.igId, to: contact.id, text: 'Hi from the app' });
    await s.fb.instagramMessaging.redeliver();
    await s.settled();
    const conversation = await conversationWith(contact.id);
    const sentEvents = (await s.events(['message.sent'])).filter((e) => e.data.conversationId === conversation.id);
    assert.deepEqual(sentEvents.map((e) => e.data), [{
      conversationId: conversation.id, messageId: null, orgId: orgId(), network: 'instagram', platformMessageId: message.mid, source: 'native_app', content: 'Hi from the app',
    }]);
    const stored = await api('GET', `/v1/conversations/${conversation.id}/messages`);
    assert.deepEqual(stored.body.data.map((m: any) => m.text), ['hi']);
  });

  test("outside the 24-hour window: Crier refuses (422) before calling; the network's own refusal is message.failed with its reason", async () => {
    const late = s.fb.instagramMessaging.addContact({ username: 'late' });
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: late.id, text: 'old question', ageMs: 25 * 3_600_000 });
    await s.settled();
    const old = await conversationWith(late.id);
    const calls = s.fb.instagramMessaging.calls().length;
    const refused = await api('POST', `/v1/conversations/${old.id}/messages`, { text: 'too late' });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'messaging_window_closed');
    assert.equal(s.fb.instagramMessaging.calls().length, calls, 'the network was not called');

    const contact = s.fb.instagramMessaging.addContact({ username: 'closing' });
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'question' });
    await s.settled();
    const conversation = await conversationWith(contact.id);
    s.fb.instagramMessaging.ageConversation(s.igId, contact.id, 25 * 3_600_000);
    const failed = await api('POST', `/v1/conversations/${conversation.id}/messages`, { text: 'answer' });
    assert.equal(failed.status, 422);
    assert.equal(failed.body.code, 'message_refused');
    assert.match(failed.body.error, /outside of allowed window/);
    const stored = await api('GET', `/v1/conversations/${conversation.id}/messages`);
    const last = stored.body.data.at(-1);
    assert.equal(last.status, 'failed');
    const [event] = (await s.events(['message.failed'])).filter((e) => e.data.conversationId === conversation.id);
    assert.deepEqual(event!.data, { conversationId: conversation.id, messageId: last.id, orgId: orgId(), network: 'instagram', error: last.error });
    assert.match(event!.data.error, /outside of allowed window\. \(#10\/2018278\)/);
  });

  test('bad messages: 400 with a detail per field', async () => {
    const contact = s.fb.instagramMessaging.addContact();
    await s.fb.instagramMessaging.message({ igUserId: s.igId, from: contact.id, text: 'hi' });
    await s.settled();
    const conversation = await conversationWith(contact.id);
    const replies = Array.from({ length: 14 }, (_, i) => ({ id: `q${i}`, title: `Option ${i}` }));
    const tooMany = await api('POST', `/v1/conversations/${conversation.id}/messages`, { text: 'x', quickReplies: replies });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(tooMany.body.details.map((d: any) => d.field), ['quickReplies']);
    const bad = await api('POST', `/v1/conversations/${conversation.id}/messages`, {
      text: 'é'.repeat(501), quickReplies: [{ id: 'a', title: 'A title that is too long' }, { id: 'a', title: 'B' }, { title: 'C' }],
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.details.map((d: any) => d.field), ['text', 'quickReplies[0].title', 'quickReplies[1].id', 'quickReplies[2].id']);
    const missing = await api('POST', '/v1/conversations/zzzzzzzz/messages', { text: 'x' });
    assert.equal(missing.status, 404);
  });

  test('an account connected without the messaging scope: 403 messaging_not_enabled', async () => {
    const { account } = await s.addInstagram('plain_account', false);
    const res = await api('POST', '/v1/conversations', { social_account_id: account.id, instagram: { comment_id: '1', author_id: '2' }, text: 'hi' });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'messaging_not_enabled');
    assert.match(res.body.error, /scopes": \["messaging"\]/);
  });
});

describe('comment-to-DM', () => {
  test('the one private reply to a comment starts the conversation; a second is refused; a comment older than 7 days is refused by the network', async () => {
    const contact = s.fb.instagramMessaging.addContact({ username: 'commenter' });
    const { comment } = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799500001', from: contact.id, text: 'price?' });
    await s.settled();
    const [received] = (await s.events(['comment.received'])).filter((e) => e.data.commentId === comment.id);
    const body = { social_account_id: received!.data.accountId, instagram: { comment_id: received!.data.commentId, author_id: received!.data.authorId }, text: 'Sent you the price!' };
    const started = await api('POST', '/v1/conversations', body);
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const { conversation, message } = started.body.data;
    assert.equal(conversation.participantId, contact.id);
    assert.equal(message.commentId, comment.id);
    const call = s.fb.instagramMessaging.calls().filter((c) => c.method === 'POST').at(-1)!;
    assert.deepEqual(call.body, { recipient: { comment_id: comment.id }, message: { text: 'Sent you the price!' } });
    const events = (await s.events()).filter((e) => e.data.conversationId === conversation.id);
    assert.deepEqual(events.map((e) => e.type), ['conversation.started', 'message.sent']);
    assert.deepEqual(events[1]!.data, { conversationId: conversation.id, messageId: message.id, orgId: orgId(), network: 'instagram', platformMessageId: message.platformMessageId, source: 'api' });

    const again = await api('POST', '/v1/conversations', body);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'private_reply_exists');

    const old = await s.fb.instagramMessaging.comment({ igUserId: s.igId, mediaId: '1799500001', from: contact.id, text: 'old', ageMs: 8 * 24 * 3_600_000 });
    await s.settled();
    const refused = await api('POST', '/v1/conversations', { ...body, instagram: { comment_id: old.comment.id, author_id: contact.id } });
    assert.equal(refused.status, 422);
    assert.match(refused.body.error, /outside of allowed window/);
    const failed = (await s.events(['message.failed'])).filter((e) => e.data.conversationId === conversation.id);
    assert.equal(failed.length, 1);
    assert.match(failed[0]!.data.error, /outside of allowed window/);
  });

  test('the body must name the comment under the account\'s network', async () => {
    const res = await api('POST', '/v1/conversations', { social_account_id: s.account.id, text: 'hi', other: { comment_id: '1' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details.map((d: any) => d.field), ['instagram.comment_id', 'instagram.author_id']);
  });
});
