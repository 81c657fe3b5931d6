// Keeps OAuth access tokens fresh: every minute, accounts whose token expires within 10 minutes are
// refreshed one at a time, each under its row lock (FOR UPDATE SKIP LOCKED), so two workers never
// refresh the same account: X refresh tokens are single-use, a second refresh would fail. The lock
// is held across the token call so the new refresh token is stored before anyone can read the old one.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { withTransaction, type Db } from '../db/pool.ts';
import { XOAuthError, refreshXToken } from '../networks/x/oauth.ts';
import { markAccountDisconnected } from '../publishing/finish.ts';
import type { SecretBox } from '../security/crypto.ts';
import { openSecret, saveAccountSecrets } from './secrets.ts';
import { appCredentials } from './social-networks.ts';

const INTERVAL_MS = 60_000;
const REFRESH_AHEAD = '10 minutes';
const BATCH = 100;

export type RefreshOutcome = 'refreshed' | 'skipped' | 'disconnected' | 'failed';

/** Refreshes every due X token; returns what happened per account id (tests and logs). */
export async function refreshDueTokens(db: Db, box: SecretBox, config: Pick<Config, 'networks'>, logger?: Logger): Promise<Map<number, RefreshOutcome>> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM social_accounts
      WHERE network = 'x' AND is_active AND refresh_token_enc IS NOT NULL AND token_expires_at < now() + $1::interval
      ORDER BY token_expires_at LIMIT ${BATCH}`,
    [REFRESH_AHEAD],
  );
  const outcomes = new Map<number, RefreshOutcome>();
  for (const { id } of rows) {
    try {
      outcomes.set(id, await refreshAccount(db, box, config.networks.xApiUrl, id, logger));
    } catch (error) {
      outcomes.set(id, 'failed');
      logger?.warn({ err: error, accountId: id }, 'token refresh failed');
    }
  }
  return outcomes;
}

async function refreshAccount(db: Db, box: SecretBox, apiUrl: string, accountId: number, logger?: Logger): Promise<RefreshOutcome> {
  return withTransaction(db, async (tx) => {
    // Re-checked under the lock: another worker may have refreshed it since the candidate query.
    const { rows } = await tx.query<{ id: number; org_id: number; network: 'x'; username: string; refresh_token_enc: Buffer }>(
      `SELECT id, org_id, network, username, refresh_token_enc FROM social_accounts
        WHERE id = $1 AND is_active AND refresh_token_enc IS NOT NULL AND token_expires_at < now() + $2::interval
        FOR UPDATE SKIP LOCKED`,
      [accountId, REFRESH_AHEAD],
    );
    const account = rows[0];
    if (!account) return 'skipped';
    const app = await appCredentials(tx, box, account.org_id, 'x');
    if (!app) {
      logger?.warn({ accountId }, 'x token not refreshed: the organization has no x app registered (POST /v1/social-networks)');
      return 'skipped';
    }
    const refreshToken = openSecret(box, account.id, 'refresh', account.refresh_token_enc)!;
    try {
      const tokens = await refreshXToken(apiUrl, app, refreshToken);
      // An answer without a refresh token keeps the stored one (saveAccountSecrets never writes an empty one).
      await saveAccountSecrets(tx, box, account.id, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt });
      return 'refreshed';
    } catch (error) {
      if (!(error instanceof XOAuthError) || error.kind !== 'revoked') throw error;
      await markAccountDisconnected(tx, account.org_id, account, `${error.message}; reconnect the account`);
      return 'disconnected';
    }
  });
}

/** The maintenance timer of worker processes; also drops OAuth states past their expiry. */
export function startTokenRefresh(config: Config, db: Db, box: SecretBox, logger: Logger): NodeJS.Timeout {
  // A slow pass (one network call per due account) must not overlap the next one in this process.
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    refreshDueTokens(db, box, config, logger)
      .then(() => db.query('DELETE FROM oauth_states WHERE expires_at < now()'))
      .catch((error: unknown) => logger.warn({ err: error }, 'token refresh pass failed'))
      .finally(() => {
        running = false;
      });
  };
  void run();
  return setInterval(run, INTERVAL_MS).unref();
}
