// What the Discord tests share: the Discord emulator, Crier with a worker, and channel webhooks
// connected as accounts with their URL.
import assert from 'node:assert/strict';
import { startDiscordEmulator, type AddWebhookInput, type DiscordEmulator, type WebhookView } from '../../../emulators/discord/server.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';

export interface Hook extends TestAccount {
  webhook: WebhookView;
}

export interface DiscordStack {
  dc: DiscordEmulator;
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  /** A webhook (of a new text channel unless `input` says otherwise), connected as an account. */
  addHook(input?: Partial<AddWebhookInput>): Promise<Hook>;
  create(account: Hook, body: object): Promise<string>;
  /** Creates and waits until the destination is terminal; the post as GET /v1/posts/:id shows it. */
  publish(account: Hook, body: object): Promise<any>;
  upload(filename: string, bytes: Buffer, contentType: string): Promise<string>;
  close(): Promise<void>;
}

let hooks = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startDiscordStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<DiscordStack> {
  const dc = await startDiscordEmulator();
  const h = await startMediaPublishing({ CRIER_DISCORD_BASE_URL: dc.url, CRIER_ACCOUNT_QUOTAS: 'discord=off', ...env }, { worker: options.worker ?? true });
  const org = await h.server.createOrg();
  const stack: DiscordStack = {
    dc, h, org,
    async addHook(input = {}) {
      hooks += 1;
      const webhook = dc.addWebhook({ name: `Hook ${hooks}`, channelName: `channel-${hooks}`, ...input });
      const account = await h.server.addAccount(org, 'discord', webhook.name, { networkUniqueId: webhook.id, credential: webhook.url });
      return { ...account, webhook };
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
      await dc.close();
    },
  };
  return stack;
}
