// What the Discord tests share: the Discord emulator, Crier with a worker, channel webhooks connected as
// accounts with their URL, and bots connected with their token and channel.
import { startDiscordEmulator, type AddWebhookInput, type BotView, type Channel, type ChannelKind, type DiscordEmulator, type WebhookView } from '../../../emulators/discord/server.ts';
import { botAccountId, sealedBotCredential } from '../../../src/networks/discord/account.ts';
import type { TestAccount } from '../../helpers/harness.ts';
import { startMediaPublishing } from '../../helpers/media.ts';
import { postingStack, type PostingStack } from '../../helpers/posting-stack.ts';

export interface Hook extends TestAccount {
  webhook: WebhookView;
}

/** A bot account: the bot, and the channel it was connected with. */
export interface BotAccount extends TestAccount {
  bot: BotView;
  channel: Channel;
}

export interface DiscordStack extends PostingStack<Hook | BotAccount> {
  dc: DiscordEmulator;
  /** A webhook (of a new text channel unless `input` says otherwise), connected as an account. */
  addHook(input?: Partial<AddWebhookInput>): Promise<Hook>;
  /** A bot granted a new channel (text unless `kind` says otherwise), connected as an account as connect.ts stores it. */
  addBotAccount(kind?: ChannelKind): Promise<BotAccount>;
}

let hooks = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startDiscordStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<DiscordStack> {
  const dc = await startDiscordEmulator();
  const h = await startMediaPublishing({ CRIER_DISCORD_BASE_URL: dc.url, CRIER_ACCOUNT_QUOTAS: 'discord=off', ...env }, { worker: options.worker ?? true });
  const org = await h.server.createOrg();
  const stack: DiscordStack = {
    ...postingStack<Hook | BotAccount>(h, org, dc),
    dc,
    async addHook(input = {}) {
      hooks += 1;
      const webhook = dc.addWebhook({ name: `Hook ${hooks}`, channelName: `channel-${hooks}`, ...input });
      const account = await h.server.addAccount(org, 'discord', webhook.name, { networkUniqueId: webhook.id, credential: webhook.url });
      return { ...account, webhook };
    },
    async addBotAccount(kind = 'text') {
      hooks += 1;
      const bot = dc.addBot({ username: `Bot ${hooks}` });
      const channel = dc.addChannel({ kind, name: `bot-channel-${hooks}` });
      dc.grantChannel(bot.id, channel.id);
      const account = await h.server.addAccount(org, 'discord', `#${channel.name}`, { networkUniqueId: botAccountId(channel.id), credential: sealedBotCredential({ botToken: bot.token, channelId: channel.id }) });
      return { ...account, bot, channel };
    },
  };
  return stack;
}
