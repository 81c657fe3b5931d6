// The Telegram emulator over raw HTTP, held to the Bot API reference (https://core.telegram.org/bots/api):
// the four ways of passing parameters, the answer envelope, the documented limits refused as Telegram
// refuses them, files by upload, URL, file_id and attach://, replies, edits, deletes, flood control and
// a kicked bot. Telegram publishes no machine-readable description; each test names the section it checks.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTelegramEmulator, type Bot, type TelegramEmulator } from '../../emulators/telegram/server.ts';
import { makeJpeg } from '../helpers/media.ts';

let tg: TelegramEmulator;
let bot: Bot;
let channel: number;
let jpeg: Buffer;
let files: Server;
let filesUrl: string;
const big = Buffer.alloc(5 * 1024 * 1024 + 1);

before(async () => {
  tg = await startTelegramEmulator();
  bot = tg.addBot({ username: 'raw_bot' });
  channel = tg.addChat({ type: 'channel', title: 'Raw', username: 'raw_channel' });
  tg.setMember(channel, bot, 'administrator', { can_post_messages: true });
  jpeg = await makeJpeg();
  files = createServer((req, res) => {
    if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    if (req.url === '/big.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.concat([jpeg, big]));
    return res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
after(async () => {
  await tg.close();
  await new Promise((resolve) => files.close(resolve));
});

type Answer = { status: number; body: any };
const answer = async (res: Response): Promise<Answer> => ({ status: res.status, body: await res.json() });
const method = (name: string, token = bot.token) => `${tg.url}/bot${token}/${name}`;
const call = (name: string, params: Record<string, unknown>, token = bot.token) =>
  fetch(method(name, token), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) }).then(answer);
const refusedWith = (res: Answer, status: number, description: string) => {
  assert.deepEqual(res, { status, body: { ok: false, error_code: status, description } });
};

describe('making requests (#making-requests)', () => {
  test('the same call by query string, form, JSON and multipart; method names in any case', async () => {
    const text = (res: Answer) => (assert.equal(res.status, 200, JSON.stringify(res.body)), res.body.result.text);
    assert.equal(text(await fetch(`${method('sendMessage')}?chat_id=${channel}&text=by+query`).then(answer)), 'by query');
    assert.equal(text(await fetch(method('SENDMESSAGE'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ chat_id: '@raw_channel', text: 'by form' }).toString() }).then(answer)), 'by form');
    assert.equal(text(await call('sendmessage', { chat_id: channel, text: 'by json' })), 'by json');
    const form = new FormData();
    form.set('chat_id', String(channel));
    form.set('text', 'by multipart');
    assert.equal(text(await fetch(method('sendMessage'), { method: 'POST', body: form }).then(answer)), 'by multipart');
  });

  test('the envelope: ok and result; a token no bot has is 401, a method the API lacks 404', async () => {
    const me = await call('getMe', {});
    assert.equal(me.body.ok, true);
    assert.deepEqual(Object.keys(me.body.result).sort(), ['can_connect_to_business', 'can_join_groups', 'can_read_all_group_messages', 'first_name', 'has_main_web_app', 'id', 'is_bot', 'supports_inline_queries', 'username']);
    refusedWith(await call('getMe', {}, '123:not-a-bot-token-at-all-xxxxxxxx'), 401, 'Unauthorized');
    refusedWith(await call('sendTelepathy', {}), 404, 'Not Found');
  });

  test('the token in the path never enters the calls record', async () => {
    const { calls } = await fetch(`${tg.url}/__emulator/calls`).then((r) => r.json()) as { calls: { path: string }[] };
    assert.ok(calls.length > 0);
    assert.ok(calls.every((c) => !c.path.includes(bot.token.split(':')[1]!)), JSON.stringify(calls.map((c) => c.path)));
    assert.ok(calls.some((c) => c.path === '/bot[redacted]/getMe'));
  });
});

describe('sendMessage, captions and formatting (#sendmessage, #formatting-options)', () => {
  test('4,096 UTF-16 code units pass, one more is "message is too long"; a caption over 1,024 "message caption is too long"', async () => {
    assert.equal((await call('sendMessage', { chat_id: channel, text: '😀'.repeat(2048) })).status, 200);
    refusedWith(await call('sendMessage', { chat_id: channel, text: `${'😀'.repeat(2048)}x` }), 400, 'Bad Request: message is too long');
    const form = new FormData();
    form.set('chat_id', String(channel));
    form.set('caption', 'c'.repeat(1025));
    form.set('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'p.jpg');
    refusedWith(await fetch(method('sendPhoto'), { method: 'POST', body: form }).then(answer), 400, 'Bad Request: message caption is too long');
    refusedWith(await call('sendMessage', { chat_id: channel, text: '' }), 400, 'Bad Request: message text is empty');
  });

  test('HTML and MarkdownV2 become text and entities (UTF-16 offsets); what cannot be parsed is refused', async () => {
    const html = await call('sendMessage', { chat_id: channel, text: '😀 <b>bold</b> <a href="https://e.x/">link</a>', parse_mode: 'HTML' });
    assert.equal(html.body.result.text, '😀 bold link');
    assert.deepEqual(html.body.result.entities, [{ type: 'bold', offset: 3, length: 4 }, { type: 'text_link', offset: 8, length: 4, url: 'https://e.x/' }]);
    const md = await call('sendMessage', { chat_id: channel, text: '*b* _i_ 1\\.0', parse_mode: 'MarkdownV2' });
    assert.equal(md.body.result.text, 'b i 1.0');
    assert.deepEqual(md.body.result.entities.map((e: any) => [e.type, e.offset, e.length]), [['bold', 0, 1], ['italic', 2, 1]]);
    refusedWith(await call('sendMessage', { chat_id: channel, text: 'v1.0', parse_mode: 'MarkdownV2' }), 400, "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'");
    refusedWith(await call('sendMessage', { chat_id: channel, text: '<foo>x</foo>', parse_mode: 'HTML' }), 400, 'Bad Request: can\'t parse entities: Unsupported start tag "foo" at byte offset 0');
  });

  test('reply_parameters: the reply carries reply_to_message; a missing target is refused unless allow_sending_without_reply', async () => {
    const root = (await call('sendMessage', { chat_id: channel, text: 'root' })).body.result;
    const reply = await call('sendMessage', { chat_id: channel, text: 'reply', reply_parameters: { message_id: root.message_id } });
    assert.equal(reply.body.result.reply_to_message.message_id, root.message_id);
    assert.equal(reply.body.result.sender_chat.id, channel, 'a channel post is signed by the channel');
    refusedWith(await call('sendMessage', { chat_id: channel, text: 'x', reply_parameters: { message_id: 999_999 } }), 400, 'Bad Request: message to be replied not found');
    const anyway = await call('sendMessage', { chat_id: channel, text: 'x', reply_parameters: { message_id: 999_999, allow_sending_without_reply: true } });
    assert.equal(anyway.status, 200);
    assert.equal(anyway.body.result.reply_to_message, undefined);
  });
});

describe('files (#sending-files) and albums (#sendmediagroup)', () => {
  test('a photo by URL is downloaded; over 5 MB by URL, or a URL that fails, is "failed to get HTTP URL content"; its file_id sends it again', async () => {
    const sent = await call('sendPhoto', { chat_id: channel, photo: `${filesUrl}/photo.jpg` });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const sizes = sent.body.result.photo;
    assert.equal(sizes.length, 2);
    assert.equal(sizes[1].file_size, jpeg.length);
    refusedWith(await call('sendPhoto', { chat_id: channel, photo: `${filesUrl}/big.jpg` }), 400, 'Bad Request: failed to get HTTP URL content');
    refusedWith(await call('sendPhoto', { chat_id: channel, photo: `${filesUrl}/missing.jpg` }), 400, 'Bad Request: failed to get HTTP URL content');
    const again = await call('sendPhoto', { chat_id: channel, photo: sizes[1].file_id });
    assert.equal(again.status, 200);
    refusedWith(await call('sendPhoto', { chat_id: channel, photo: 'no-such-file-id' }), 400, 'Bad Request: wrong file identifier/HTTP URL specified');
  });

  test('an album takes 2 to 10 items, documents only with documents, uploads by attach://', async () => {
    const item = { type: 'photo', media: `${filesUrl}/photo.jpg` };
    refusedWith(await call('sendMediaGroup', { chat_id: channel, media: [item] }), 400, 'Bad Request: media must include 2-10 items');
    refusedWith(await call('sendMediaGroup', { chat_id: channel, media: Array(11).fill(item) }), 400, 'Bad Request: too many messages to send as an album');
    refusedWith(await call('sendMediaGroup', { chat_id: channel, media: [item, { type: 'document', media: `${filesUrl}/photo.jpg` }] }), 400, "Bad Request: document can't be mixed with other media types");
    const form = new FormData();
    form.set('chat_id', String(channel));
    form.set('media', JSON.stringify([{ type: 'photo', media: 'attach://one', caption: 'album' }, { type: 'photo', media: 'attach://two' }]));
    form.set('one', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'one.jpg');
    form.set('two', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'two.jpg');
    const album = await fetch(method('sendMediaGroup'), { method: 'POST', body: form }).then(answer);
    assert.equal(album.status, 200, JSON.stringify(album.body));
    assert.equal(album.body.result.length, 2);
    assert.equal(album.body.result[0].media_group_id, album.body.result[1].media_group_id);
    assert.deepEqual(album.body.result.map((m: any) => m.caption), ['album', undefined]);
  });
});

describe('editMessageText, editMessageCaption and deleteMessage', () => {
  test('an edit changes the text and sets edit_date; the same text again is "message is not modified"', async () => {
    const sent = (await call('sendMessage', { chat_id: channel, text: 'before' })).body.result;
    const edited = await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'after' });
    assert.equal(edited.body.result.text, 'after');
    assert.equal(typeof edited.body.result.edit_date, 'number');
    const same = await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'after' });
    assert.match(same.body.description, /^Bad Request: message is not modified/);
  });

  test('editMessageText (#editmessagetext): entities from its own parse_mode only, link_preview_options as sent, the limits', async () => {
    const sent = (await call('sendMessage', { chat_id: channel, text: '<b>bold</b> https://example.com', parse_mode: 'HTML', link_preview_options: { is_disabled: true } })).body.result;
    assert.deepEqual(sent.entities, [{ type: 'bold', offset: 0, length: 4 }]);
    const plain = await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'plain https://example.com', link_preview_options: { is_disabled: true } });
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.equal(plain.body.result.text, 'plain https://example.com');
    assert.equal(plain.body.result.entities, undefined);
    assert.deepEqual(plain.body.result.link_preview_options, { is_disabled: true });
    const previewed = await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'plain https://example.com' });
    assert.equal(previewed.body.result.link_preview_options, undefined);
    refusedWith(await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'x'.repeat(4097) }), 400, 'Bad Request: message is too long');
    refusedWith(await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: ' ' }), 400, 'Bad Request: message text is empty');
    refusedWith(await call('editMessageText', { chat_id: channel, message_id: 999_999, text: 'x' }), 400, 'Bad Request: message to edit not found');
    refusedWith(await call('editMessageText', { chat_id: channel, text: 'x' }), 400, 'Bad Request: message identifier is not specified');
    const photo = (await call('sendPhoto', { chat_id: channel, photo: `${filesUrl}/photo.jpg`, caption: 'a photo' })).body.result;
    refusedWith(await call('editMessageText', { chat_id: channel, message_id: photo.message_id, text: 'x' }), 400, 'Bad Request: there is no text in the message to edit');
  });

  test('editMessageCaption (#editmessagecaption): a file\'s caption, up to 1,024 characters; a text message has none', async () => {
    const photo = (await call('sendPhoto', { chat_id: channel, photo: `${filesUrl}/photo.jpg`, caption: 'first' })).body.result;
    const edited = await call('editMessageCaption', { chat_id: channel, message_id: photo.message_id, caption: '<i>second</i>', parse_mode: 'HTML' });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.result.caption, 'second');
    assert.deepEqual(edited.body.result.caption_entities, [{ type: 'italic', offset: 0, length: 6 }]);
    assert.equal(typeof edited.body.result.edit_date, 'number');
    assert.equal(edited.body.result.photo.length, 2);
    const same = await call('editMessageCaption', { chat_id: channel, message_id: photo.message_id, caption: '<i>second</i>', parse_mode: 'HTML' });
    refusedWith(same, 400, 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    refusedWith(await call('editMessageCaption', { chat_id: channel, message_id: photo.message_id, caption: 'x'.repeat(1025) }), 400, 'Bad Request: message caption is too long');
    const cleared = await call('editMessageCaption', { chat_id: channel, message_id: photo.message_id });
    assert.equal(cleared.body.result.caption, undefined);
    const text = (await call('sendMessage', { chat_id: channel, text: 'words' })).body.result;
    refusedWith(await call('editMessageCaption', { chat_id: channel, message_id: text.message_id, caption: 'x' }), 400, 'Bad Request: there is no caption in the message to edit');
  });

  test('a bot edits the messages it sent; in a channel an administrator with can_edit_messages edits others\' too', async () => {
    const sent = (await call('sendMessage', { chat_id: channel, text: 'mine' })).body.result;
    const poster = tg.addBot({ username: 'poster_bot' });
    tg.setMember(channel, poster, 'administrator', { can_post_messages: true });
    refusedWith(await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'theirs' }, poster.token), 400, "Bad Request: message can't be edited");
    const editor = tg.addBot({ username: 'editor_bot' });
    tg.setMember(channel, editor, 'administrator', { can_post_messages: true, can_edit_messages: true });
    assert.equal((await call('editMessageText', { chat_id: channel, message_id: sent.message_id, text: 'edited by an editor' }, editor.token)).body.result.text, 'edited by an editor');
  });

  test('a delete answers true; after 48 hours Telegram refuses', async () => {
    const sent = (await call('sendMessage', { chat_id: channel, text: 'delete me' })).body.result;
    assert.deepEqual((await call('deleteMessage', { chat_id: channel, message_id: sent.message_id })).body, { ok: true, result: true });
    refusedWith(await call('deleteMessage', { chat_id: channel, message_id: sent.message_id }), 400, 'Bad Request: message to delete not found');
    const old = (await call('sendMessage', { chat_id: channel, text: 'old' })).body.result;
    tg.advanceClock(48 * 3600_000);
    refusedWith(await call('deleteMessage', { chat_id: channel, message_id: old.message_id }), 400, "Bad Request: message can't be deleted");
    tg.advanceClock(-48 * 3600_000);
  });
});

describe('who may post, and flood control', () => {
  test('a member of a channel needs administrator rights; a bot never added is not a member; a kicked one is forbidden', async () => {
    const other = tg.addBot({ username: 'other_bot' });
    tg.setMember(channel, other, 'member');
    refusedWith(await call('sendMessage', { chat_id: channel, text: 'x' }, other.token), 400, 'Bad Request: need administrator rights in the channel chat');
    const stranger = tg.addBot({ username: 'stranger_bot' });
    refusedWith(await call('sendMessage', { chat_id: '@raw_channel', text: 'x' }, stranger.token), 403, 'Forbidden: bot is not a member of the channel chat');
    assert.equal((await call('getChatMember', { chat_id: channel, user_id: stranger.id })).body.result.status, 'left');
    tg.kickBot(channel, other);
    refusedWith(await call('sendMessage', { chat_id: channel, text: 'x' }, other.token), 403, 'Forbidden: bot was kicked from the channel chat');
    refusedWith(await call('getChat', { chat_id: -1_000_000_000_999 }), 400, 'Bad Request: chat not found');
  });

  test('429 carries parameters.retry_after, for as many calls as the control says', async () => {
    tg.floodChat(channel, 3, 2);
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(await call('sendMessage', { chat_id: channel, text: 'x' }), {
        status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 3', parameters: { retry_after: 3 } },
      });
    }
    assert.equal((await call('sendMessage', { chat_id: channel, text: 'x' })).status, 200);
  });
});
