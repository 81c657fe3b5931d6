// Keeps OAuth access tokens fresh: every minute, accounts whose token expires within its network's
// refresh window are refreshed one at a time, each under its row lock (FOR UPDATE SKIP LOCKED), so
// two workers never refresh the same account: X, TikTok and Pinterest rotate refresh tokens, a
// second refresh with the old one would fail. The lock is held across the token call so the new
// refresh token is stored before anyone can read the old one. A token that cannot be refreshed
// (a network or app without refresh) is marked inactive when it expires, with one
// account.token_expired, so the app knows to reconnect it. The publishing engine also refreshes on
// demand, under the same lock, when a network refuses a token the refresher has not replaced yet.
import type { Logger } from 'pino';
import { every, type Scheduled } from '../background/schedule.ts';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { OAuthError, type NetworkOAuth } from '../networks/oauth.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { ManagedApps } from '../config.ts';
import type { NetworkId } from '../core/network-id.ts';
import { markAccountDisconnected } from './disconnect.ts';
import type { SecretBox } from '../security/crypto.ts';
import { purgeExpiredPendingConnections } from './pending-connections.ts';
import { openSecret, saveAccountSecrets } from './secrets.ts';
import { accountApp } from './social-networks.ts';

const INTERVAL_MS = 60_000;
const BATCH = 100;

export type RefreshOutcome = 'refreshed' | 'skipped' | 'disconnected' | 'failed';
type Providers = Partial<Record<NetworkId, NetworkOAuth>>;
/** What a refresh needs of the networks: their OAuth sides, and the operator's apps for managed accounts. */
export interface RefreshSides {
  providers: Providers;
  managedApps: ManagedApps;
}

/** Per network: how far ahead to refresh, whether it can, and whether it needs a stored refresh token. */
function refreshPolicies(providers: Providers): string {
  return JSON.stringify(Object.values(providers).map((p) => ({
    network: p!.network,
    ahead: p!.refresh ? p!.refreshAheadSecs : 0,
    can_refresh: Boolean(p!.refresh),
    uses_refresh_token: p!.refreshUses !== 'access_token',
  })));
}

/** Due: refreshable within its window, or expired whatever it is (then it cannot be used any more). */
const DUE = `a.is_active AND a.token_expires_at IS NOT NULL
    AND (a.token_refresh_retry_at IS NULL OR a.token_refresh_retry_at <= now()) AND (
    a.token_expires_at <= now()
    OR (p.can_refresh AND (a.refresh_token_enc IS NOT NULL OR NOT p.uses_refresh_token)
        AND a.token_expires_at < now() + make_interval(secs => p.ahead)))`;
/** After a refresh without a verdict (network down, app refused), the account waits this long. */
export const RETRY_AFTER = '5 minutes';
const POLICIES = `jsonb_to_recordset($1::jsonb) AS p(network text, ahead int, can_refresh boolean, uses_refresh_token boolean)`;

/** Refreshes every due token; returns what happened per account id (tests and logs). */
export async function refreshDueTokens(db: Db, box: SecretBox, networks: NetworkRegistry, logger?: Logger): Promise<Map<number, RefreshOutcome>> {
  const providers = networks.oauthProviders();
  const sides = { providers, managedApps: networks.managedApps };
  const policies = refreshPolicies(providers);
  const { rows } = await db.query<{ id: number }>(
    `SELECT a.id FROM social_accounts a JOIN ${POLICIES} ON p.network = a.network
      WHERE ${DUE} ORDER BY a.token_expires_at LIMIT ${BATCH}`,
    [policies],
  );
  const outcomes = new Map<number, RefreshOutcome>();
  for (const { id } of rows) {
    try {
      outcomes.set(id, await refreshAccount(db, box, sides, policies, id, logger));
    } catch (error) {
      outcomes.set(id, 'failed');
      logger?.warn({ err: error, accountId: id }, `token refresh failed; retried in ${RETRY_AFTER}`);
      await db.query(`UPDATE social_accounts SET token_refresh_retry_at = now() + $2::interval WHERE id = $1`, [id, RETRY_AFTER]).catch(() => {});
    }
  }
  return outcomes;
}

interface LockedAccount {
  id: number;
  org_id: number;
  network: NetworkId;
  username: string;
  access_token_enc: Buffer | null;
  refresh_token_enc: Buffer | null;
  managed_app: boolean;
  expired: boolean;
}

async function refreshAccount(db: Db, box: SecretBox, sides: RefreshSides, policies: string, accountId: number, logger?: Logger): Promise<RefreshOutcome> {
  return withTransaction(db, async (tx) => {
    // Re-checked under the lock: another worker may have refreshed it since the candidate query.
    const { rows } = await tx.query<LockedAccount>(
      `SELECT a.id, a.org_id, a.network, a.username, a.access_token_enc, a.refresh_token_enc, a.managed_app, a.token_expires_at <= now() AS expired
         FROM social_accounts a JOIN ${POLICIES} ON p.network = a.network
        WHERE a.id = $2 AND ${DUE}
        FOR UPDATE OF a SKIP LOCKED`,
      [policies, accountId],
    );
    const account = rows[0];
    if (!account) return 'skipped';
    const provider = sides.providers[account.network]!;
    const spent = await spendRefresh(tx, box, provider, account, sides.managedApps);
    if (spent === 'refreshed') return 'refreshed';
    if (spent === 'no_refresh') {
      if (!account.expired) return 'skipped';
      await markAccountDisconnected(tx, account.org_id, account, `the ${account.network} token expired and cannot be refreshed; reconnect the account`);
      return 'disconnected';
    }
    if (spent === 'no_app') {
      logger?.warn({ accountId }, account.managed_app
        ? `${account.network} token not refreshed: it was connected through the operator's app, which is no longer configured (CRIER_${account.network.toUpperCase()}_CLIENT_ID)`
        : `${account.network} token not refreshed: the organization has no ${account.network} app registered (POST /v1/social-networks)`);
      await tx.query(`UPDATE social_accounts SET token_refresh_retry_at = now() + $2::interval WHERE id = $1`, [account.id, RETRY_AFTER]);
      return 'skipped';
    }
    await markAccountDisconnected(tx, account.org_id, account, `${spent.revoked}; reconnect the account`);
    return 'disconnected';
  });
}

type Spent = 'refreshed' | 'no_refresh' | 'no_app' | { revoked: string };

/**
 * The refresh itself, under the caller's row lock: the new tokens are stored before the lock is let
 * go, or the reason there are none. A failure without a verdict (network down, app refused) throws.
 */
async function spendRefresh(tx: Tx, box: SecretBox, provider: NetworkOAuth, account: LockedAccount, managedApps: ManagedApps): Promise<Spent> {
  const credential = provider.refreshUses === 'access_token'
    ? openSecret(box, account.id, 'access', account.access_token_enc)
    : openSecret(box, account.id, 'refresh', account.refresh_token_enc);
  if (!provider.refresh || !credential) return 'no_refresh';
  const app = await accountApp(tx, box, account, managedApps);
  if (!app) return 'no_app';
  try {
    const tokens = await provider.refresh(app, credential);
    // An answer without a refresh token keeps the stored one (saveAccountSecrets never writes an empty one).
    await saveAccountSecrets(tx, box, account.id, tokens);
    await tx.query('UPDATE social_accounts SET token_refresh_retry_at = NULL WHERE id = $1', [account.id]);
    return 'refreshed';
  } catch (error) {
    if (!(error instanceof OAuthError) || error.kind !== 'revoked') throw error;
    return { revoked: error.message };
  }
}

/** A refresh the publishing engine asked for: `refused` carries the network's reason. */
export type TokenRefreshNow = { outcome: 'refreshed' | 'unavailable' } | { outcome: 'refused'; reason: string };

/**
 * The publishing engine needs a fresh token now: the one it holds expires within the minute, or the
 * network refused it, and the refresher has not replaced it yet (after a worker's downtime it may not
 * have run): refresh it now, under the refresher's row lock. The lock is waited
 * for rather than skipped, and a token another worker replaced meanwhile is not refreshed again, so a
 * rotating refresh token is still spent once. `unavailable`: the network, the org's app or the account
 * has no way to refresh. Nothing here disconnects the account: the caller decides with its own error.
 */
export async function refreshTokenNow(
  db: Db, box: SecretBox, sides: RefreshSides, account: { id: number; network: NetworkId; accessToken: string | null },
): Promise<TokenRefreshNow> {
  const provider = sides.providers[account.network];
  if (!provider?.refresh) return { outcome: 'unavailable' };
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<LockedAccount>(
      `SELECT id, org_id, network, username, access_token_enc, refresh_token_enc, managed_app, true AS expired
         FROM social_accounts WHERE id = $1 AND is_active FOR UPDATE`,
      [account.id],
    );
    const locked = rows[0];
    if (!locked) return { outcome: 'unavailable' };
    if (openSecret(box, locked.id, 'access', locked.access_token_enc) !== account.accessToken) return { outcome: 'refreshed' };
    const spent = await spendRefresh(tx, box, provider, locked, sides.managedApps);
    if (typeof spent === 'object') return { outcome: 'refused', reason: spent.revoked };
    return { outcome: spent === 'refreshed' ? 'refreshed' : 'unavailable' };
  });
}

/** The maintenance timer of worker processes; also drops expired OAuth states and connect sessions. */
export function startTokenRefresh(networks: NetworkRegistry, db: Db, box: SecretBox, logger: Logger): Scheduled {
  // A slow pass (one network call per due account) is never overlapped by the next one (every).
  return every(INTERVAL_MS, 'token refresh pass', async () => {
    await refreshDueTokens(db, box, networks, logger);
    await db.query('DELETE FROM oauth_states WHERE expires_at < now()');
    await purgeExpiredPendingConnections(db);
  }, logger);
}
