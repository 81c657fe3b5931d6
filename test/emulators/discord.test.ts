// The Discord emulator over raw HTTP, held to Discord's official OpenAPI description (vendored in
// emulators/discord/description/): every answer checked against the description's response schema
// for its status, and the refusals Discord documents (Invalid Form Body with its nested errors, Unknown
// Webhook, forum posts without a thread name, empty messages, files over the upload limit, 429 with
// retry_after and the X-RateLimit-* headers).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDiscordEmulator, type DiscordEmulator, type WebhookView } from '../../emulators/discord/server.ts';
import { answerProblems } from '../../emulators/discord/validate.ts';

const WEBHOOK = '/webhooks/{webhook_id}/{webhook_token}';
const MESSAGE = '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}';

let dc: DiscordEmulator;
let hook: WebhookView;
const api = (webhook: WebhookView) => `${dc.url}/api/v10/webhooks/${webhook.id}/${webhook.token}`;

before(async () => {
  dc = await startDiscordEmulator();
  dc.setBucket(1000, 2000);
  hook = dc.addWebhook({ name: 'Announcer', channelName: 'news' });
});
after(async () => dc.close());

type Answer = { status: number; body: any; headers: Headers };

/** A call, its answer held to the description (`template` and method name the operation). */
async function call(method: string, url: string, template: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, { method, ...init });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  assert.deepEqual(answerProblems(method, template, res.status, body), [], `${method} ${url} ${res.status} ${text}`);
  return { status: res.status, body, headers: res.headers };
}
const json = (body: unknown): RequestInit => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the webhook', () => {
  test('Get Webhook with Token answers its id, name, channel and server, with the rate-limit headers', async () => {
    const got = await call('GET', api(hook), WEBHOOK);
    assert.equal(got.status, 200);
    assert.deepEqual([got.body.id, got.body.name, got.body.channel_id, got.body.type], [hook.id, 'Announcer', hook.channelId, 1]);
    assert.equal(got.body.user, undefined, 'no user when read with the token');
    assert.ok(got.headers.get('x-ratelimit-bucket'));
    assert.match(got.headers.get('x-ratelimit-reset-after')!, /^\d+\.\d{3}$/);
  });

  test('the URL as Discord gives it (no version segment) reaches the same webhook', async () => {
    const res = await fetch(hook.url);
    assert.equal(res.status, 200);
  });

  test('a wrong token is 401 Invalid Webhook Token (50027); an unknown id 404 Unknown Webhook (10015)', async () => {
    const wrong = await call('GET', `${dc.url}/api/v10/webhooks/${hook.id}/nottherightone`, WEBHOOK);
    assert.deepEqual([wrong.status, wrong.body.code, wrong.body.message], [401, 50027, 'Invalid Webhook Token']);
    const unknown = await call('GET', `${dc.url}/api/v10/webhooks/123456789012345678/${hook.token}`, WEBHOOK);
    assert.deepEqual([unknown.status, unknown.body.code], [404, 10015]);
  });
});

describe('Execute Webhook', () => {
  test('wait=true answers the message; without it 204 and the message is sent all the same', async () => {
    const sent = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, json({ content: 'hello', username: 'Crier', embeds: [{ title: 'An embed', color: 0xff0000 }] }));
    assert.equal(sent.status, 200);
    assert.equal(sent.body.content, 'hello');
    assert.equal(sent.body.author.username, 'Crier');
    assert.equal(sent.body.webhook_id, hook.id);
    assert.deepEqual(sent.body.embeds, [{ title: 'An embed', color: 0xff0000, type: 'rich' }]);
    const quiet = await fetch(api(hook), { method: 'POST', ...json({ content: 'no wait' }) });
    assert.equal(quiet.status, 204);
    assert.deepEqual(dc.channel(hook.channelId)!.messages.slice(-2).map((m) => m.content), ['hello', 'no wait']);
  });

  test('content over 2,000 characters: 400 Invalid Form Body (50035), the error nested under the field', async () => {
    const refused = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, json({ content: 'x'.repeat(2001), embeds: [{ title: 't'.repeat(257) }] }));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50035);
    assert.deepEqual(refused.body.errors.content._errors, [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }]);
    assert.deepEqual(refused.body.errors.embeds['0'].title._errors[0].code, 'BASE_TYPE_MAX_LENGTH');
  });

  test('an empty message is 50006; a body that is not JSON 50109', async () => {
    const empty = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, json({ username: 'nobody' }));
    assert.deepEqual([empty.status, empty.body.code], [400, 50006]);
    const broken = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, { headers: { 'content-type': 'application/json' }, body: '{' });
    assert.deepEqual([broken.status, broken.body.code], [400, 50109]);
  });

  test('multipart: payload_json and files[n], each attachment with its declared filename and description', async () => {
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content: 'two files', attachments: [{ id: 0, description: 'a red square' }, { id: 1, filename: 'renamed.txt' }] }));
    form.append('files[0]', new Blob([Buffer.from('png-bytes')], { type: 'image/png' }), 'square.png');
    form.append('files[1]', new Blob([Buffer.from('text')], { type: 'text/plain' }), 'notes.txt');
    const sent = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, { body: form });
    assert.equal(sent.status, 200);
    assert.deepEqual(sent.body.attachments.map((a: any) => [a.filename, a.size, a.content_type, a.description]), [['square.png', 9, 'image/png', 'a red square'], ['renamed.txt', 4, 'text/plain', undefined]]);
  });

  test('a file over the upload limit: 413 Request entity too large (40005)', async () => {
    dc.setMaxFileBytes(10);
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content: 'big' }));
    form.append('files[0]', new Blob([Buffer.alloc(11)]), 'big.bin');
    const refused = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, { body: form });
    dc.setMaxFileBytes(25 * 1024 * 1024);
    assert.deepEqual([refused.status, refused.body.code], [413, 40005]);
  });

  test('a forum channel: thread_name opens a forum post (the thread\'s id is its first message\'s), thread_id sends into it; neither is 220001', async () => {
    const forum = dc.addWebhook({ name: 'Forum hook', channelKind: 'forum', channelName: 'ideas' });
    const none = await call('POST', `${api(forum)}?wait=true`, WEBHOOK, json({ content: 'where?' }));
    assert.deepEqual([none.status, none.body.code], [400, 220001]);
    const opened = await call('POST', `${api(forum)}?wait=true`, WEBHOOK, json({ content: 'first', thread_name: 'A new idea' }));
    assert.equal(opened.status, 200);
    assert.equal(opened.body.channel_id, opened.body.id);
    const thread = dc.channel(opened.body.channel_id)!;
    assert.deepEqual([thread.kind, thread.name, thread.parentId], ['publicThread', 'A new idea', forum.channelId]);
    const followUp = await call('POST', `${api(forum)}?wait=true&thread_id=${thread.id}`, WEBHOOK, json({ content: 'second' }));
    assert.equal(followUp.body.channel_id, thread.id);
    assert.equal(followUp.body.position, 1);
    assert.deepEqual(dc.channel(thread.id)!.messages.map((m) => m.content), ['first', 'second']);
  });

  test('thread_name in a text channel is 220003; an unknown thread_id 10003', async () => {
    const named = await call('POST', `${api(hook)}?wait=true`, WEBHOOK, json({ content: 'x', thread_name: 'nope' }));
    assert.deepEqual([named.status, named.body.code], [400, 220003]);
    const unknown = await call('POST', `${api(hook)}?wait=true&thread_id=123456789012345678`, WEBHOOK, json({ content: 'x' }));
    assert.deepEqual([unknown.status, unknown.body.code], [404, 10003]);
  });
});

describe('a webhook message', () => {
  test('read, edited, deleted; in a thread only with thread_id', async () => {
    const thread = dc.addThread(hook.channelId, 'a thread');
    const sent = await call('POST', `${api(hook)}?wait=true&thread_id=${thread}`, WEBHOOK, json({ content: 'in a thread' }));
    const url = `${api(hook)}/messages/${sent.body.id}`;
    assert.equal((await call('GET', url, MESSAGE)).body.code, 10008, 'unknown outside its thread');
    const read = await call('GET', `${url}?thread_id=${thread}`, MESSAGE);
    assert.equal(read.body.content, 'in a thread');
    const edited = await call('PATCH', `${url}?thread_id=${thread}`, MESSAGE, json({ content: 'edited' }));
    assert.equal(edited.body.content, 'edited');
    assert.ok(edited.body.edited_timestamp);
    const deleted = await fetch(`${url}?thread_id=${thread}`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    assert.equal(dc.message(sent.body.id), undefined);
    const again = await call('DELETE', `${url}?thread_id=${thread}`, MESSAGE);
    assert.deepEqual([again.status, again.body.code], [404, 10008]);
  });

  test('a deleted webhook answers 404 Unknown Webhook everywhere', async () => {
    const doomed = dc.addWebhook({ name: 'Doomed' });
    const sent = await call('POST', `${api(doomed)}?wait=true`, WEBHOOK, json({ content: 'before' }));
    dc.deleteWebhook(doomed.id);
    assert.equal((await call('GET', api(doomed), WEBHOOK)).body.code, 10015);
    assert.equal((await call('DELETE', `${api(doomed)}/messages/${sent.body.id}`, MESSAGE)).body.code, 10015);
  });
});

describe('rate limits', () => {
  test('the webhook bucket: past its limit in the window, 429 with retry_after, global false, and the headers', async () => {
    const limited = dc.addWebhook({ name: 'Busy' });
    dc.setBucket(5, 2000);
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i < 6; i += 1) {
      last = await call('POST', `${api(limited)}?wait=true`, WEBHOOK, json({ content: `n${i}` }));
      statuses.push(last.status);
    }
    dc.setBucket(1000, 2000);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    assert.equal(last!.body.message, 'You are being rate limited.');
    assert.equal(last!.body.global, false);
    assert.ok(last!.body.retry_after > 0 && last!.body.retry_after <= 2);
    assert.equal(last!.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(last!.headers.get('x-ratelimit-scope'), 'user');
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
    assert.equal(dc.channel(limited.channelId)!.messages.length, 5, 'the refused call sent nothing');
  });

  test('a forced 429 (a test control) carries the retry_after it was given', async () => {
    const forced = dc.addWebhook({ name: 'Forced' });
    dc.forceRateLimit(forced.id, 1.25);
    const refused = await call('POST', `${api(forced)}?wait=true`, WEBHOOK, json({ content: 'x' }));
    assert.deepEqual([refused.status, refused.body.retry_after], [429, 1.25]);
    assert.equal((await call('POST', `${api(forced)}?wait=true`, WEBHOOK, json({ content: 'x' }))).status, 200);
  });
});

describe('a bot (Authorization: Bot <token>)', () => {
  const CHANNEL = '/channels/{channel_id}';
  const MESSAGES = '/channels/{channel_id}/messages';
  const BOT_MESSAGE = '/channels/{channel_id}/messages/{message_id}';
  const THREADS = '/channels/{channel_id}/threads';
  const bot = () => dc.addBot({ username: 'Crier bot' });
  const as = (token: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bot ${token}` } });
  const v10 = (path: string) => `${dc.url}/api/v10${path}`;
  const granted = (kind: 'text' | 'forum' = 'text') => {
    const b = bot();
    const channel = dc.addChannel({ kind, name: kind === 'forum' ? 'ideas' : 'news' });
    dc.grantChannel(b.id, channel.id);
    return { b, channel };
  };

  test('Get Current User answers the bot; a wrong token is 401', async () => {
    const b = bot();
    const me = await call('GET', v10('/users/@me'), '/users/@me', as(b.token));
    assert.deepEqual([me.status, me.body.id, me.body.username, me.body.bot], [200, b.id, 'Crier bot', true]);
    const wrong = await call('GET', v10('/users/@me'), '/users/@me', as('nottherightone'));
    assert.equal(wrong.status, 401);
  });

  test('Get Channel: a granted channel with its type and server; an unknown one 404 (10003); one not granted 403 Missing Access (50001)', async () => {
    const { b, channel } = granted();
    const got = await call('GET', v10(`/channels/${channel.id}`), CHANNEL, as(b.token));
    assert.deepEqual([got.status, got.body.id, got.body.type, got.body.guild_id, got.body.name], [200, channel.id, 0, channel.guildId, 'news']);
    const voice = dc.addChannel({ kind: 'voice', guildId: channel.guildId, name: 'lounge' });
    const dm = dc.addChannel({ kind: 'dm' });
    dc.grantChannel(b.id, voice.id);
    dc.grantChannel(b.id, dm.id);
    assert.equal((await call('GET', v10(`/channels/${voice.id}`), CHANNEL, as(b.token))).body.type, 2);
    assert.equal((await call('GET', v10(`/channels/${dm.id}`), CHANNEL, as(b.token))).body.type, 1);
    const unknown = await call('GET', v10('/channels/123456789012345678'), CHANNEL, as(b.token));
    assert.deepEqual([unknown.status, unknown.body.code], [404, 10003]);
    const other = dc.addChannel({ name: 'secret' });
    const hidden = await call('GET', v10(`/channels/${other.id}`), CHANNEL, as(b.token));
    assert.deepEqual([hidden.status, hidden.body.code], [403, 50001]);
  });

  test('Create Message: the bot is the author; a reply carries message_reference and type 19', async () => {
    const { b, channel } = granted();
    const root = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'root', allowed_mentions: { parse: [] } })));
    assert.equal(root.status, 200);
    assert.deepEqual([root.body.author.id, root.body.author.bot, root.body.webhook_id], [b.id, true, undefined]);
    const reply = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'reply', message_reference: { message_id: root.body.id } })));
    assert.deepEqual([reply.body.type, reply.body.message_reference.message_id, reply.body.message_reference.channel_id], [19, root.body.id, channel.id]);
    const dangling = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'x', message_reference: { message_id: '123456789012345678' } })));
    assert.deepEqual([dangling.status, dangling.body.code, dangling.body.errors.message_reference._errors[0].code], [400, 50035, 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE']);
    const long = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'x'.repeat(2001) })));
    assert.deepEqual([long.status, long.body.errors.content._errors[0].message], [400, 'Must be 2000 or fewer in length.']);
  });

  test('a nonce with enforce_nonce: the same nonce within the window answers the first message, none is made; later it makes a new one', async () => {
    const { b, channel } = granted();
    const body = { content: 'once', nonce: 'crier-nonce-1', enforce_nonce: true };
    const first = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json(body)));
    const again = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json(body)));
    assert.equal(again.body.id, first.body.id);
    assert.equal(first.body.nonce, 'crier-nonce-1');
    assert.equal(dc.channel(channel.id)!.messages.length, 1);
    const tooLong = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'x', nonce: 'n'.repeat(26) })));
    assert.equal(tooLong.status, 400);
    dc.advanceClock(6 * 60_000);
    const later = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json(body)));
    assert.notEqual(later.body.id, first.body.id);
    assert.equal(dc.channel(channel.id)!.messages.length, 2);
  });

  test('Get Channel Messages after a snowflake: newest first, without the nonce', async () => {
    const { b, channel } = granted();
    const sent = [];
    for (const content of ['one', 'two', 'three']) sent.push((await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content, nonce: content, enforce_nonce: true })))).body.id);
    const listed = await call('GET', v10(`/channels/${channel.id}/messages?after=${sent[0]}&limit=100`), MESSAGES, as(b.token));
    assert.deepEqual(listed.body.map((m: any) => m.content), ['three', 'two']);
    assert.equal(listed.body[0].nonce, undefined);
  });

  test('Edit Message changes the content alone and sets edited_timestamp; Delete Message 204 then 404', async () => {
    const { b, channel } = granted();
    const sent = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'typo', embeds: [{ title: 'kept' }] })));
    const edited = await call('PATCH', v10(`/channels/${channel.id}/messages/${sent.body.id}`), BOT_MESSAGE, as(b.token, json({ content: 'fixed' })));
    assert.deepEqual([edited.body.content, edited.body.embeds[0].title, typeof edited.body.edited_timestamp], ['fixed', 'kept', 'string']);
    const other = dc.addBot({ username: 'Other' });
    dc.grantChannel(other.id, channel.id);
    const notMine = await call('PATCH', v10(`/channels/${channel.id}/messages/${sent.body.id}`), BOT_MESSAGE, as(other.token, json({ content: 'hijack' })));
    assert.deepEqual([notMine.status, notMine.body.code], [403, 50005]);
    assert.equal((await call('DELETE', v10(`/channels/${channel.id}/messages/${sent.body.id}`), BOT_MESSAGE, as(b.token))).status, 204);
    assert.equal((await call('DELETE', v10(`/channels/${channel.id}/messages/${sent.body.id}`), BOT_MESSAGE, as(b.token))).body.code, 10008);
  });

  test('a forum: Create Message is refused (50008); Start Thread opens a forum post answered 201 with its message, whose id is the thread\'s', async () => {
    const { b, channel } = granted('forum');
    const refused = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'x' })));
    assert.deepEqual([refused.status, refused.body.code], [400, 50008]);
    const post = await call('POST', v10(`/channels/${channel.id}/threads`), THREADS, as(b.token, json({ name: 'An idea', message: { content: 'first' } })));
    assert.equal(post.status, 201);
    assert.deepEqual([post.body.parent_id, post.body.name, post.body.owner_id, post.body.message.id, post.body.message.channel_id], [channel.id, 'An idea', b.id, post.body.id, post.body.id]);
    const inside = await call('POST', v10(`/channels/${post.body.id}/messages`), MESSAGES, as(b.token, json({ content: 'second' })));
    assert.equal(inside.body.channel_id, post.body.id);
  });

  test('a forced 429 on a bot route: retry_after, the bucket named', async () => {
    const { b, channel } = granted();
    dc.forceRateLimit(b.id, 1.5);
    const limited = await call('POST', v10(`/channels/${channel.id}/messages`), MESSAGES, as(b.token, json({ content: 'x' })));
    assert.deepEqual([limited.status, limited.body.retry_after], [429, 1.5]);
    assert.ok(limited.headers.get('x-ratelimit-bucket'));
  });
});
