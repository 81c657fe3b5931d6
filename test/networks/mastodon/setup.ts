// What the Mastodon tests share: the Mastodon emulator as the operator's configured instance
// (CRIER_MASTODON_BASE_URL), Crier with a worker, and accounts of the instance connected with their
// access tokens as POST /v1/social-accounts/mastodon stores them.
import assert from 'node:assert/strict';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import type { TestAccount } from '../../helpers/harness.ts';
import { startMediaPublishing } from '../../helpers/media.ts';
import { postingStack, type PostingStack } from '../../helpers/posting-stack.ts';

export interface Connected extends TestAccount {
  remote: Account;
}

export interface MastodonStack extends PostingStack<Connected> {
  masto: MastodonEmulator;
  /** An account of the instance, connected through the API with its token. */
  connect(): Promise<Connected>;
}

let accounts = 0;

/** `worker`: false for tests that start `crier worker` processes themselves. */
export async function startMastodonStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<MastodonStack> {
  const masto = await startMastodonEmulator();
  const h = await startMediaPublishing({ CRIER_MASTODON_BASE_URL: masto.url, CRIER_ACCOUNT_QUOTAS: 'mastodon=off', ...env }, { worker: options.worker ?? true });
  const org = await h.server.createOrg();
  const stack: MastodonStack = {
    ...postingStack<Connected>(h, org, masto),
    masto,
    async connect() {
      accounts += 1;
      const remote = masto.addAccount({ username: `poster${accounts}` });
      const res = await h.server.request('POST', '/v1/social-accounts/mastodon', { key: org.key, body: { instanceUrl: masto.url, accessToken: remote.token } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.data.id, network: 'mastodon', username: `poster${accounts}`, remote } as Connected;
    },
  };
  return stack;
}
