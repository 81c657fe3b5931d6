// What the Telegram tests share: the Telegram emulator (which downloads files named by URL from
// Crier's HTTPS front, as Telegram does), Crier with a worker, and channels administered by a bot,
// connected as accounts with the bot's token.
import assert from 'node:assert/strict';
import { startTelegramEmulator, type Bot, type TelegramEmulator } from '../../../emulators/telegram/server.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';

export interface Channel extends TestAccount {
  chatId: number;
  bot: Bot;
}

export interface TelegramStack {
  tg: TelegramEmulator;
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  /** A channel (public when `username` is given) whose bot may post, connected as an account. */
  addChannel(username?: string): Promise<Channel>;
  create(account: Channel, body: object): Promise<string>;
  /** Creates and waits until the destination is terminal; the post as GET /v1/posts/:id shows it. */
  publish(account: Channel, body: object): Promise<any>;
  upload(filename: string, bytes: Buffer, contentType: string): Promise<string>;
  close(): Promise<void>;
}

let channels = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startTelegramStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<TelegramStack> {
  const tg = await startTelegramEmulator();
  const h = await startMediaPublishing({ CRIER_TELEGRAM_BASE_URL: tg.url, CRIER_ACCOUNT_QUOTAS: 'telegram=off', ...env }, { worker: options.worker ?? true });
  tg.trustCa(h.front.ca);
  const org = await h.server.createOrg();
  const stack: TelegramStack = {
    tg, h, org,
    async addChannel(username) {
      channels += 1;
      const bot = tg.addBot({ username: `crier_test_${channels}_bot` });
      const chatId = tg.addChat({ type: 'channel', title: `Channel ${channels}`, ...(username ? { username } : {}) });
      tg.setMember(chatId, bot, 'administrator', { can_post_messages: true, can_delete_messages: true });
      const account = await h.server.addAccount(org, 'telegram', username ?? `Channel ${channels}`, { networkUniqueId: String(chatId), credential: bot.token });
      return { ...account, chatId, bot };
    },
    async create(account, body) {
      const created = await h.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], ...body } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return created.body.post.id as string;
    },
    async publish(account, body) {
      return h.stack.waitForPost(org, await stack.create(account, body), undefined, 30_000);
    },
    async upload(filename, bytes, contentType) {
      return (await h.upload(org, filename, bytes, contentType)).url as string;
    },
    async close() {
      await h.close();
      await tg.close();
    },
  };
  return stack;
}
