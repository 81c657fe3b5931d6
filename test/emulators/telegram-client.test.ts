// The most-used Telegram client for Node, grammY (`grammy`; Telegram publishes no official JS client),
// run unchanged against the emulator: its documented `client.apiRoot` option points it there (grammY
// docs: https://grammy.dev/ref/core/apiclientoptions#apiroot). It sends JSON for plain calls and
// multipart for InputFile uploads, and reads errors into GrammyError (error_code, description,
// parameters): each call below checks what the emulator then holds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Api, GrammyError, InputFile, InputMediaBuilder } from 'grammy';
import { startTelegramEmulator, type Bot, type TelegramEmulator } from '../../emulators/telegram/server.ts';
import { makeJpeg } from '../helpers/media.ts';

let tg: TelegramEmulator;
let bot: Bot;
let api: Api;
let channel: number;
let jpeg: Buffer;

before(async () => {
  tg = await startTelegramEmulator();
  bot = tg.addBot({ username: 'grammy_test_bot', firstName: 'Grammy Test' });
  channel = tg.addChat({ type: 'channel', title: 'Grammy Channel', username: 'grammy_channel' });
  tg.setMember(channel, bot, 'administrator', { can_post_messages: true, can_edit_messages: true, can_delete_messages: true });
  api = new Api(bot.token, { apiRoot: tg.url });
  jpeg = await makeJpeg();
});
after(() => tg.close());

const stored = () => tg.chat(channel)!.messages;

describe('grammY against the Telegram emulator', () => {
  test('getMe, getChat by @username, getChatMember: the bot, the channel, its administrator rights', async () => {
    const me = await api.getMe();
    assert.deepEqual([me.id, me.is_bot, me.username, me.first_name], [bot.id, true, 'grammy_test_bot', 'Grammy Test']);
    const chat = await api.getChat('@grammy_channel');
    assert.deepEqual([chat.id, chat.type, chat.title, (chat as { username?: string }).username], [channel, 'channel', 'Grammy Channel', 'grammy_channel']);
    const member = await api.getChatMember(channel, bot.id);
    assert.equal(member.status, 'administrator');
    assert.equal((member as { can_post_messages?: boolean }).can_post_messages, true);
  });

  test('sendMessage with HTML, then a reply to it: the reply names the message it answers', async () => {
    const root = await api.sendMessage(channel, '<b>hello</b> &amp; welcome', { parse_mode: 'HTML', disable_notification: true });
    assert.equal(root.text, 'hello & welcome');
    assert.deepEqual(root.entities, [{ type: 'bold', offset: 0, length: 5 }]);
    assert.equal(root.sender_chat?.id, channel);
    const reply = await api.sendMessage(channel, 'a reply', { reply_parameters: { message_id: root.message_id } });
    assert.equal(reply.reply_to_message?.message_id, root.message_id);
    const held = stored().find((m) => m.messageId === reply.message_id)!;
    assert.equal(held.replyTo, root.message_id);
    assert.equal(stored().find((m) => m.messageId === root.message_id)!.disableNotification, true);
  });

  test('sendPhoto with an uploaded InputFile (multipart): the photo sizes come back, the bytes arrived', async () => {
    const sent = await api.sendPhoto(channel, new InputFile(jpeg, 'photo.jpg'), { caption: 'uploaded' });
    assert.equal(sent.caption, 'uploaded');
    assert.equal(sent.photo?.at(-1)?.file_size, jpeg.length);
    const held = stored().find((m) => m.messageId === sent.message_id)!;
    assert.deepEqual([held.file!.kind, held.file!.came, held.file!.size], ['photo', 'upload', jpeg.length]);
  });

  test('sendMediaGroup of two uploads (attach://): two messages of one album, the caption on the first', async () => {
    // Each item is typed as one kind of message among several; the album's are photos.
    const album: { media_group_id?: string; caption?: string }[] = await api.sendMediaGroup(channel, [
      InputMediaBuilder.photo(new InputFile(jpeg, 'a.jpg'), { caption: 'album' }),
      InputMediaBuilder.photo(new InputFile(jpeg, 'b.jpg')),
    ]);
    assert.equal(album.length, 2);
    assert.ok(album[0]!.media_group_id);
    assert.equal(album[0]!.media_group_id, album[1]!.media_group_id);
    assert.deepEqual(album.map((m) => m.caption), ['album', undefined]);
  });

  test('editMessageText then deleteMessage: the text changes, then the message is gone; a second delete is refused', async () => {
    const sent = await api.sendMessage(channel, 'first words');
    const edited = await api.editMessageText(channel, sent.message_id, 'second words');
    assert.equal(typeof edited === 'object' && (edited as { text?: string }).text, 'second words');
    assert.equal(stored().find((m) => m.messageId === sent.message_id)!.text, 'second words');
    assert.equal(await api.deleteMessage(channel, sent.message_id), true);
    assert.ok(!stored().some((m) => m.messageId === sent.message_id));
    await assert.rejects(api.deleteMessage(channel, sent.message_id), (error: unknown) =>
      error instanceof GrammyError && error.error_code === 400 && error.description === 'Bad Request: message to delete not found');
  });

  test('editMessageCaption on an uploaded photo, then the same caption again: "message is not modified" as a GrammyError', async () => {
    const sent = await api.sendPhoto(channel, new InputFile(jpeg, 'photo.jpg'), { caption: 'old caption' });
    const edited = await api.editMessageCaption(channel, sent.message_id, { caption: 'new caption' });
    assert.equal(typeof edited === 'object' && (edited as { caption?: string }).caption, 'new caption');
    assert.equal(typeof edited === 'object' && typeof (edited as { edit_date?: number }).edit_date, 'number');
    assert.equal(stored().find((m) => m.messageId === sent.message_id)!.caption, 'new caption');
    await assert.rejects(api.editMessageCaption(channel, sent.message_id, { caption: 'new caption' }), (error: unknown) =>
      error instanceof GrammyError && error.error_code === 400 && /^Bad Request: message is not modified/.test(error.description));
    await assert.rejects(api.editMessageText(channel, sent.message_id, 'text'), (error: unknown) =>
      error instanceof GrammyError && error.description === 'Bad Request: there is no text in the message to edit');
  });

  test('flood control reaches grammY as a GrammyError with parameters.retry_after', async () => {
    tg.floodChat(channel, 7);
    await assert.rejects(api.sendMessage(channel, 'too fast'), (error: unknown) =>
      error instanceof GrammyError && error.error_code === 429 && error.parameters.retry_after === 7 && error.description === 'Too Many Requests: retry after 7');
    assert.equal((await api.sendMessage(channel, 'in time')).text, 'in time');
  });

  test('a revoked token: 401 Unauthorized', async () => {
    const other = tg.addBot({ username: 'revoked_bot' });
    tg.revokeToken(other.token);
    await assert.rejects(new Api(other.token, { apiRoot: tg.url }).getMe(), (error: unknown) =>
      error instanceof GrammyError && error.error_code === 401 && error.description === 'Unauthorized');
  });
});
