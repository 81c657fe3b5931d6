// What the Telegram tests share: the Telegram emulator (which downloads files named by URL from
// Crier's HTTPS front, as Telegram does), Crier with a worker, and channels administered by a bot,
// connected as accounts with the bot's token.
import { startTelegramEmulator, type Bot, type TelegramEmulator } from '../../../emulators/telegram/server.ts';
import type { TestAccount } from '../../helpers/harness.ts';
import { startMediaPublishing } from '../../helpers/media.ts';
import { postingStack, type PostingStack } from '../../helpers/posting-stack.ts';

export interface Channel extends TestAccount {
  chatId: number;
  bot: Bot;
}

export interface TelegramStack extends PostingStack<Channel> {
  tg: TelegramEmulator;
  /** A channel (public when `username` is given) whose bot may post, connected as an account. */
  addChannel(username?: string): Promise<Channel>;
}

let channels = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startTelegramStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<TelegramStack> {
  const tg = await startTelegramEmulator();
  const h = await startMediaPublishing({ CRIER_TELEGRAM_BASE_URL: tg.url, CRIER_ACCOUNT_QUOTAS: 'telegram=off', ...env }, { worker: options.worker ?? true });
  tg.trustCa(h.front.ca);
  const org = await h.server.createOrg();
  const stack: TelegramStack = {
    ...postingStack<Channel>(h, org, tg),
    tg,
    async addChannel(username) {
      channels += 1;
      const bot = tg.addBot({ username: `crier_test_${channels}_bot` });
      const chatId = tg.addChat({ type: 'channel', title: `Channel ${channels}`, ...(username ? { username } : {}) });
      tg.setMember(chatId, bot, 'administrator', { can_post_messages: true, can_delete_messages: true });
      const account = await h.server.addAccount(org, 'telegram', username ?? `Channel ${channels}`, { networkUniqueId: String(chatId), credential: bot.token });
      return { ...account, chatId, bot };
    },
  };
  return stack;
}
