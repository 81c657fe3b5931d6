// What the Discord tests share: the Discord emulator, Crier with a worker, and channel webhooks
// connected as accounts with their URL.
import { startDiscordEmulator, type AddWebhookInput, type DiscordEmulator, type WebhookView } from '../../../emulators/discord/server.ts';
import type { TestAccount } from '../../helpers/harness.ts';
import { startMediaPublishing } from '../../helpers/media.ts';
import { postingStack, type PostingStack } from '../../helpers/posting-stack.ts';

export interface Hook extends TestAccount {
  webhook: WebhookView;
}

export interface DiscordStack extends PostingStack<Hook> {
  dc: DiscordEmulator;
  /** A webhook (of a new text channel unless `input` says otherwise), connected as an account. */
  addHook(input?: Partial<AddWebhookInput>): Promise<Hook>;
}

let hooks = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startDiscordStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<DiscordStack> {
  const dc = await startDiscordEmulator();
  const h = await startMediaPublishing({ CRIER_DISCORD_BASE_URL: dc.url, CRIER_ACCOUNT_QUOTAS: 'discord=off', ...env }, { worker: options.worker ?? true });
  const org = await h.server.createOrg();
  const stack: DiscordStack = {
    ...postingStack<Hook>(h, org, dc),
    dc,
    async addHook(input = {}) {
      hooks += 1;
      const webhook = dc.addWebhook({ name: `Hook ${hooks}`, channelName: `channel-${hooks}`, ...input });
      const account = await h.server.addAccount(org, 'discord', webhook.name, { networkUniqueId: webhook.id, credential: webhook.url });
      return { ...account, webhook };
    },
  };
  return stack;
}
