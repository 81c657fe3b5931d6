// An account's session: its credentials opened from their sealed columns, and a network called as the
// account. One place for what every caller outside the claim needs (a listing, a comment list, a
// reply, figures, a delete, an import page, a message sent): the session a capability gets, the token
// refreshed once when the network refuses it (as the publishing engine does), and the network's
// refusal turned into Crier's answer. The publishing claim opens its accounts with `openAccount` too.
import type { Db, Queryable } from '../db/pool.ts';
import { RequestError, PublishError } from '../core/errors.ts';
import type { AccountSession } from '../networks/capabilities.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { AccountCredentials } from '../core/account.ts';
import type { NetworkId } from '../core/network-id.ts';
import { createLedger } from './ledger.ts';
import type { SecretBox } from '../security/crypto.ts';
import { openSecret, saveAccountSecrets } from './secrets.ts';
import { refreshTokenNow } from './token-refresh.ts';

export interface SealedAccount {
  id: number;
  org_id: number;
  network: string;
  username: string;
  network_unique_id: string;
  service_url: string | null;
  is_active: boolean;
  access_token_enc: Buffer | null;
  refresh_token_enc: Buffer | null;
  credential_enc: Buffer | null;
  managed_app: boolean;
}

/** The account as it is now (after a token refresh, say). */
export async function loadAccount(db: Queryable, box: SecretBox, accountId: number): Promise<{ active: boolean; credentials: AccountCredentials }> {
  const { rows } = await db.query<SealedAccount>(
    `SELECT id, org_id, network, username, network_unique_id, service_url, is_active, access_token_enc, refresh_token_enc, credential_enc, managed_app
       FROM social_accounts WHERE id = $1`,
    [accountId],
  );
  const a = rows[0]!;
  return { active: a.is_active, credentials: openAccount(box, a) };
}

export function openAccount(box: SecretBox, a: SealedAccount): AccountCredentials {
  return {
    id: a.id,
    orgId: a.org_id,
    network: a.network as NetworkId,
    username: a.username,
    networkUniqueId: a.network_unique_id,
    serviceUrl: a.service_url,
    accessToken: openSecret(box, a.id, 'access', a.access_token_enc),
    refreshToken: openSecret(box, a.id, 'refresh', a.refresh_token_enc),
    credential: openSecret(box, a.id, 'credential', a.credential_enc),
    managedApp: a.managed_app,
  };
}

/** An account as a capability calls its network with, and whether it is connected. */
export async function accountSession(db: Db, box: SecretBox, accountId: number, userFetch: typeof fetch): Promise<{ active: boolean; session: AccountSession }> {
  const { active, credentials } = await loadAccount(db, box, accountId);
  return { active, session: sessionOf({ db, box, userFetch }, credentials) };
}

export interface AccountCallDeps {
  db: Db;
  box: SecretBox;
  networks: NetworkRegistry;
  /** A fetch through the SSRF guard, for an API address a user chose (a Bluesky PDS). */
  userFetch: typeof fetch;
}

/** The org's account with its opened credentials and whether it is connected, or a 404. */
export async function orgAccount(deps: Pick<AccountCallDeps, 'db' | 'box'>, orgId: number, accountId: number): Promise<{ active: boolean; credentials: AccountCredentials }> {
  const { rows } = await deps.db.query('SELECT 1 FROM social_accounts WHERE id = $1 AND org_id = $2', [accountId, orgId]);
  if (!rows[0]) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
  return loadAccount(deps.db, deps.box, accountId);
}

/** A network call needs a connected account: a disconnected one is a 409 saying to reconnect it. */
export function requireActive(label: string, account: { active: boolean; credentials: AccountCredentials }): AccountCredentials {
  if (!account.active) throw new RequestError(409, `The ${label} account @${account.credentials.username} is disconnected: reconnect it first`, { code: 'account_disconnected' });
  return account.credentials;
}

/**
 * `call` with a session of `account`; when the network refuses the token, the token is refreshed
 * once and `call` asked again. A PublishError is answered as the network's refusal (refusal below).
 */
export async function callAsAccount<T>(deps: AccountCallDeps, account: AccountCredentials, call: (session: AccountSession) => Promise<T>): Promise<T> {
  const label = deps.networks.get(account.network).label;
  try {
    return await call(sessionOf(deps, account));
  } catch (error) {
    if (!(error instanceof PublishError) || error.kind !== 'auth') throw refusal(label, error);
    const refresh = await refreshTokenNow(deps.db, deps.box, { providers: deps.networks.oauthProviders(), managedApps: deps.networks.managedApps }, account)
      .catch(() => ({ outcome: 'unavailable' as const }));
    if (refresh.outcome !== 'refreshed') throw refusal(label, error);
    const { credentials } = await loadAccount(deps.db, deps.box, account.id);
    try {
      return await call(sessionOf(deps, credentials));
    } catch (again) {
      throw refusal(label, again);
    }
  }
}

/** The session a capability gets for `account` (shared with the inbound side). */
export function sessionOf(deps: { db: Db; box: SecretBox; userFetch: typeof fetch }, account: AccountCredentials): AccountSession {
  return {
    account,
    saveTokens: (tokens) => saveAccountSecrets(deps.db, deps.box, account.id, tokens),
    userFetch: deps.userFetch,
    ledger: createLedger(deps.db, account.network),
  };
}

/** The network's answer as Crier's: what it does not have is 404, a refused token 409, a refusal 400, the rest 502. */
export function refusal(label: string, error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (!(error instanceof PublishError)) return new RequestError(502, `${label} could not be reached: ${(error as Error).message}`, { code: 'network_error' });
  if (error.code === 'not_found') return new RequestError(404, error.message, { code: 'not_found' });
  if (error.kind === 'auth') {
    const message = /reconnect the account/.test(error.message) ? error.message : `${error.message}; reconnect the account`;
    return new RequestError(409, message, { code: 'account_token_rejected' });
  }
  if (error.kind === 'permanent') return new RequestError(400, error.message, { code: 'network_refused' });
  const retryAfter = error.retryAfterMs ? { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) } : undefined;
  return new RequestError(502, error.message, { code: 'network_error', ...(retryAfter ? { headers: retryAfter } : {}) });
}
