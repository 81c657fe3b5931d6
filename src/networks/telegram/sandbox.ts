// The Telegram emulator in `crier start --sandbox`: the sandbox account is the channel
// @crier_sandbox, administered by the bot @crier_sandbox_bot with the right to post, connected with
// the bot's token as a user would. A user may connect another chat of the emulator the same way.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import { emulatorSpec } from '../emulator.ts';
import { connectBot } from './connect.ts';

const CHANNEL = { username: 'crier_sandbox', title: 'Crier Sandbox' };

export const telegramEmulator = emulatorSpec(
  'telegram',
  async (host, fetchMedia) => (await import('../../../emulators/telegram/server.ts')).startTelegramEmulator({ host, ...(fetchMedia ? { fetchMedia } : {}) }),
  (telegram) => ({
    async sandboxAccounts() {
      const bot = telegram.addBot({ username: 'crier_sandbox_bot', firstName: 'Crier Sandbox' });
      const channel = telegram.addChat({ type: 'channel', ...CHANNEL });
      telegram.setMember(channel, bot, 'administrator', { can_post_messages: true, can_edit_messages: true, can_delete_messages: true });
      const account = await connectBot(telegram.url, { botToken: bot.token, chatId: `@${CHANNEL.username}` });
      return [{ network: 'telegram', username: account.username, nickname: 'Sandbox Telegram', networkUniqueId: account.networkUniqueId, credential: account.credential }];
    },
  }),
);
