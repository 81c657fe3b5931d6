// What the Mastodon tests share: the Mastodon emulator as the operator's configured instance
// (CRIER_MASTODON_BASE_URL), Crier with a worker, and accounts of the instance connected with their
// access tokens as POST /v1/social-accounts/mastodon stores them.
import assert from 'node:assert/strict';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';

export interface Connected extends TestAccount {
  remote: Account;
}

export interface MastodonStack {
  masto: MastodonEmulator;
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  /** An account of the instance, connected through the API with its token. */
  connect(): Promise<Connected>;
  create(account: Connected, body: object): Promise<string>;
  /** Creates and waits until the destination is terminal; the post as GET /v1/posts/:id shows it. */
  publish(account: Connected, body: object): Promise<any>;
  upload(filename: string, bytes: Buffer, contentType: string): Promise<string>;
  close(): Promise<void>;
}

let accounts = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startMastodonStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<MastodonStack> {
  const masto = await startMastodonEmulator();
  const h = await startMediaPublishing({ CRIER_MASTODON_BASE_URL: masto.url, CRIER_ACCOUNT_QUOTAS: 'mastodon=off', ...env }, { worker: options.worker ?? true });
  const org = await h.server.createOrg();
  const stack: MastodonStack = {
    masto, h, org,
    async connect() {
      accounts += 1;
      const remote = masto.addAccount({ username: `poster${accounts}` });
      const res = await h.server.request('POST', '/v1/social-accounts/mastodon', { key: org.key, body: { instanceUrl: masto.url, accessToken: remote.token } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.data.id, network: 'mastodon', username: `poster${accounts}`, remote } as Connected;
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
      await masto.close();
    },
  };
  return stack;
}
