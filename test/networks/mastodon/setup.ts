// What the Mastodon tests share: the Mastodon emulator as the operator's configured instance
// (CRIER_MASTODON_BASE_URL), Crier with a worker, and accounts of the instance connected with their
// access tokens as POST /v1/social-accounts/mastodon stores them. For the capability tests (engagement,
// edit) without Crier: accounts as sessions (the credentials connect.ts stores: the token, the
// instance's origin, `host:<account id>`), posts published through the Mastodon adapter, and raw
// calls to the instance with an account's token.
import assert from 'node:assert/strict';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import { createMastodonAdapter } from '../../../src/networks/mastodon/adapter.ts';
import type { AccountSession } from '../../../src/networks/capabilities.ts';
import type { PartRef, PublishedPost } from '../../../src/core/post.ts';
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

let sessions = 0;

export async function startInstance(): Promise<MastodonEmulator> {
  return startMastodonEmulator();
}

/** An account of the instance as a capability session; `userFetch` records what went through the guard. */
export function sessionOf(masto: MastodonEmulator, name = 'brand'): { remote: Account; session: AccountSession; guarded: string[] } {
  sessions += 1;
  const remote = masto.addAccount({ username: `${name}${sessions}`, displayName: `Brand ${sessions}` });
  const guarded: string[] = [];
  const session: AccountSession = {
    account: {
      id: sessions, orgId: 1, network: 'mastodon', username: `${remote.username}@${new URL(masto.url).host}`, networkUniqueId: `${new URL(masto.url).host}:${remote.id}`,
      serviceUrl: masto.url, accessToken: null, refreshToken: null, credential: remote.token,
    },
    saveTokens: async () => {},
    userFetch: (input, init) => {
      guarded.push(String(input));
      return fetch(input, init);
    },
  };
  return { remote, session, guarded };
}

/** Publishes text containers through the Mastodon adapter: the root, then replies to it. */
export async function publish(masto: MastodonEmulator, session: AccountSession, texts: string[], block?: Record<string, unknown>): Promise<PublishedPost> {
  const prepared = await createMastodonAdapter({ trusted: masto.url }).prepare({
    account: session.account,
    containers: texts.map((content) => ({ content, media: [] })),
    block,
    fetchMedia: () => { throw new Error('not used'); },
    openMedia: () => { throw new Error('not used'); },
    userFetch: fetch,
    saveTokens: session.saveTokens,
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
  });
  const parts: PartRef[] = [];
  for (let i = 0; i < texts.length; i++) parts.push(await prepared.publishPart(i, prepared.reserve(i), parts[0]));
  return { root: parts[0]!, parts, block: block ?? {} };
}

/** A raw call to the instance with the account's token. */
export async function instanceCall(masto: MastodonEmulator, token: string, path: string, init: { method?: string; json?: unknown; form?: FormData } = {}): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(masto.url + path, { method: init.method ?? 'GET', headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form });
  return { status: res.status, body: await res.json() };
}
