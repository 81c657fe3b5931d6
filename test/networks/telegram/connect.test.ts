// Connecting a Telegram channel or group with a bot token over real HTTP: POST
// /v1/social-accounts/telegram {botToken, chatId}, validated against the emulated Bot API (getMe,
// getChat, getChatMember), the token stored sealed; and each refusal as a 400 naming its field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTelegramEmulator, type TelegramEmulator } from '../../../emulators/telegram/server.ts';
import { openSecret } from '../../../src/accounts/secrets.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { accountRowsText } from '../../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/harness.ts';

let tg: TelegramEmulator;
let server: TestServer;
let org: TestOrg;
let n = 0;

before(async () => {
  tg = await startTelegramEmulator();
  server = await startTestServer({ CRIER_TELEGRAM_BASE_URL: tg.url });
  org = await server.createOrg();
});
after(async () => {
  await server.close();
  await tg.close();
});

/** A bot and a channel; the bot an administrator with `rights` unless `status` says otherwise. */
function channel(options: { username?: string; type?: 'channel' | 'supergroup'; status?: 'administrator' | 'member' | 'left'; rights?: Record<string, boolean> } = {}) {
  n += 1;
  const bot = tg.addBot({ username: `connect_${n}_bot` });
  const chatId = tg.addChat({ type: options.type ?? 'channel', title: `Connect ${n}`, ...(options.username ? { username: options.username } : {}) });
  if (options.status !== 'left') tg.setMember(chatId, bot, options.status ?? 'administrator', options.rights ?? { can_post_messages: true });
  return { bot, chatId };
}

const connect = (body: Record<string, unknown>) => server.request('POST', '/v1/social-accounts/telegram', { key: org.key, body });

describe('connecting a Telegram chat with a bot token', () => {
  test('a public channel by @username: the account is the channel, the token sealed in the row', async () => {
    const { bot, chatId } = channel({ username: 'crier_connect' });
    const res = await connect({ botToken: bot.token, chatId: '@crier_connect', tenantId: 'tenant_tg' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      { network: res.body.data.network, username: res.body.data.username, uid: res.body.data.network_unique_id, tenantId: res.body.data.tenantId, isActive: res.body.data.isActive },
      { network: 'telegram', username: 'crier_connect', uid: String(chatId), tenantId: 'tenant_tg', isActive: 1 },
    );
    const rawId = decodeId(res.body.data.id)!;
    const row = (await server.db.query('SELECT credential_enc FROM social_accounts WHERE id = $1', [rawId])).rows[0];
    assert.equal(openSecret(server.box, rawId, 'credential', row.credential_enc), bot.token);
    assert.ok(!(await accountRowsText(server, rawId)).includes(bot.token.split(':')[1]!), 'the token is never stored in plaintext');
    assert.ok(!JSON.stringify(res.body).includes(bot.token), 'nor returned');
  });

  test('a private supergroup by numeric id: the username is its title; connecting again updates the same account', async () => {
    const { bot, chatId } = channel({ type: 'supergroup' });
    const first = await connect({ botToken: bot.token, chatId: String(chatId) });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data.username, `Connect ${n}`);
    const again = await connect({ botToken: bot.token, chatId: String(chatId) });
    assert.equal(again.body.data.id, first.body.data.id);
  });

  test('a token Telegram does not know: 400 on botToken (Telegram answered 401), nothing stored', async () => {
    const { bot, chatId } = channel();
    tg.revokeToken(bot.token);
    const res = await connect({ botToken: bot.token, chatId: String(chatId) });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'telegram_token_refused');
    assert.deepEqual(res.body.details.map((d: any) => d.field), ['botToken']);
    assert.match(res.body.error, /Unauthorized/);
    assert.equal((await server.db.query('SELECT 1 FROM social_accounts WHERE network_unique_id = $1', [String(chatId)])).rowCount, 0);
  });

  test('a bot that is only a member, or an administrator of a channel without the right to post: 400 on chatId saying what to grant', async () => {
    const member = channel({ status: 'member' });
    const asMember = await connect({ botToken: member.bot.token, chatId: String(member.chatId) });
    assert.equal(asMember.status, 400);
    assert.equal(asMember.body.code, 'telegram_bot_not_admin');
    assert.equal(asMember.body.details[0].field, 'chatId');
    assert.match(asMember.body.details[0].message, /make @connect_\d+_bot an administrator of the chat with the right to post messages/);

    const mute = channel({ rights: { can_post_messages: false } });
    const asMute = await connect({ botToken: mute.bot.token, chatId: String(mute.chatId) });
    assert.equal(asMute.status, 400);
    assert.equal(asMute.body.code, 'telegram_bot_cannot_post');
    assert.match(asMute.body.details[0].message, /"Post messages" right/);
  });

  test('a chat the bot is not in, or that does not exist: 400 on chatId (Telegram: chat not found)', async () => {
    const { bot } = channel({ status: 'left' });
    const res = await connect({ botToken: bot.token, chatId: '@no_such_channel' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'telegram_chat_refused');
    assert.deepEqual(res.body.details.map((d: any) => d.field), ['chatId']);
    assert.match(res.body.details[0].message, /chat not found/);
  });

  test('malformed fields are refused before any call, each named; a missing one by the schema', async () => {
    const res = await connect({ botToken: 'not-a-token', chatId: 'no spaces allowed' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details.map((d: any) => d.field).sort(), ['botToken', 'chatId']);
    const missing = await connect({ botToken: '123:abc' });
    assert.equal(missing.status, 400);
    assert.match(JSON.stringify(missing.body.details), /chatId/);
  });

  test('the app-password body is not taken for telegram: its own fields are required', async () => {
    const res = await connect({ handle: 'someone', appPassword: 'x' });
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(res.body.details), /botToken|chatId/);
  });
});
