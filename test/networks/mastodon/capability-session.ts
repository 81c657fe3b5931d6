// What the capability tests share (engagement, edit): the Mastodon emulator as the operator's
// configured instance, accounts of it as sessions (the credentials connect.ts stores: the token, the
// instance's origin, `host:<account id>`), posts published through the Mastodon adapter, and the
// account's token for raw calls to the instance.
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import { createMastodonAdapter } from '../../../src/networks/mastodon/adapter.ts';
import type { AccountSession } from '../../../src/networks/capabilities.ts';
import type { PartRef, PublishedPost } from '../../../src/core/post.ts';

let count = 0;

export async function startInstance(): Promise<MastodonEmulator> {
  return startMastodonEmulator();
}

/** An account of the instance as a capability session; `userFetch` records what went through the guard. */
export function sessionOf(masto: MastodonEmulator, name = 'brand'): { remote: Account; session: AccountSession; guarded: string[] } {
  count += 1;
  const remote = masto.addAccount({ username: `${name}${count}`, displayName: `Brand ${count}` });
  const guarded: string[] = [];
  const session: AccountSession = {
    account: {
      id: count, orgId: 1, network: 'mastodon', username: `${remote.username}@${new URL(masto.url).host}`, networkUniqueId: `${new URL(masto.url).host}:${remote.id}`,
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
