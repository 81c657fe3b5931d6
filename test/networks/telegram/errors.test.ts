// What the Bot API's refusals mean for a post (client.ts classify), from the emulator's answers: when
// to try again (429's retry_after), a refused token or a bot removed from the chat (auth: the account
// is disconnected), a chat or reply target that is not there, missing rights, a file Telegram could
// not take, and text Telegram refused.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTelegramEmulator, type Bot, type TelegramEmulator } from '../../../emulators/telegram/server.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { TelegramClient } from '../../../src/networks/telegram/client.ts';

let tg: TelegramEmulator;
let bot: Bot;
let channel: number;

before(async () => {
  tg = await startTelegramEmulator();
  bot = tg.addBot({ username: 'errors_bot' });
  channel = tg.addChat({ type: 'channel', title: 'Errors' });
  tg.setMember(channel, bot, 'administrator', { can_post_messages: true });
});
after(() => tg.close());

/** The PublishError a call ends in. */
async function failure(call: Promise<unknown>): Promise<PublishError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof PublishError, String(error));
    return error;
  }
  return assert.fail('the call succeeded');
}

const client = (token = bot.token) => new TelegramClient(tg.url, token);
const what = (e: PublishError) => [e.kind, e.code, e.message];

describe('Bot API refusals as PublishError', () => {
  test('429: retryable, rate_limited, after parameters.retry_after seconds', async () => {
    tg.floodChat(channel, 42);
    const e = await failure(client().call('sendMessage', { chat_id: channel, text: 'x' }));
    assert.deepEqual([...what(e), e.retryAfterMs], ['retryable', 'rate_limited', 'telegram: flood control (Too Many Requests: retry after 42)', 42_000]);
  });

  test('a revoked token and a kicked bot: auth, naming what to do', async () => {
    const revoked = tg.addBot({ username: 'revoked_errors_bot' });
    tg.revokeToken(revoked.token);
    assert.deepEqual(what(await failure(client(revoked.token).call('getMe'))), ['auth', 'auth', "telegram: the bot token was refused (Unauthorized); connect the account again with the bot's current token"]);
    const kicked = tg.addBot({ username: 'kicked_errors_bot' });
    tg.kickBot(channel, kicked);
    const e = await failure(client(kicked.token).call('sendMessage', { chat_id: channel, text: 'x' }));
    assert.deepEqual(what(e), ['auth', 'forbidden', 'telegram: the bot cannot post to the chat any more (Forbidden: bot was kicked from the channel chat); add it back as an administrator, then connect the account again']);
  });

  test('a chat or a reply target that is not there: permanent not_found; missing rights: forbidden', async () => {
    assert.deepEqual(what(await failure(client().call('sendMessage', { chat_id: -1_000_000_009_999, text: 'x' }))), ['permanent', 'not_found', 'telegram: Bad Request: chat not found']);
    assert.deepEqual(what(await failure(client().call('sendMessage', { chat_id: channel, text: 'x', reply_parameters: { message_id: 987_654 } }))),
      ['permanent', 'not_found', 'telegram: Bad Request: message to be replied not found']);
    const member = tg.addBot({ username: 'member_errors_bot' });
    tg.setMember(channel, member, 'member');
    assert.deepEqual(what(await failure(client(member.token).call('sendMessage', { chat_id: channel, text: 'x' }))),
      ['permanent', 'forbidden', 'telegram: Bad Request: need administrator rights in the channel chat']);
  });

  test('a file Telegram could not take: media_rejected; a text it refused: invalid', async () => {
    assert.deepEqual(what(await failure(client().call('sendPhoto', { chat_id: channel, photo: 'no-such-file-id' }))),
      ['permanent', 'media_rejected', 'telegram: Bad Request: wrong file identifier/HTTP URL specified']);
    assert.deepEqual(what(await failure(client().call('sendMessage', { chat_id: channel, text: 'x'.repeat(4097) }))),
      ['permanent', 'invalid', 'telegram: Bad Request: message is too long']);
  });

  test('the token is in no message: not even when the API cannot be reached', async () => {
    const e = await failure(new TelegramClient('http://127.0.0.1:9', bot.token).call('getMe'));
    assert.equal(e.kind, 'retryable');
    assert.ok(!e.message.includes(bot.token.split(':')[1]!), e.message);
  });
});
