// What one API key may spend beyond its organization's window: a fixed quota of requests, counted in
// PostgreSQL so every API process shares it, and an operator's per-window override.
import type { Queryable } from '../db/pool.ts';

export interface QuotaUse {
  quota: number;
  used: number;
}

/**
 * Counts one request against a fixed-quota key. The increment and the check are one statement, so
 * concurrent requests (on any number of API processes) serialize on the row lock: exactly `quota`
 * of them get a QuotaUse, never one more. Undefined: the quota is used up (nothing was counted).
 */
export async function consumeQuota(db: Queryable, keyId: number): Promise<QuotaUse | undefined> {
  const result = await db.query<QuotaUse>(
    `UPDATE api_keys SET quota_used = quota_used + 1, last_used_at = now()
      WHERE id = $1 AND quota_used < fixed_quota
      RETURNING fixed_quota AS quota, quota_used AS used`,
    [keyId],
  );
  return result.rows[0];
}

/**
 * An operator's per-window limit for one key (null: back to the organization's formula). Read on
 * every request with the key, so it applies to the key's very next request.
 */
export async function setApiKeyRateLimit(db: Queryable, keyId: number, limit: number | null): Promise<boolean> {
  const result = await db.query('UPDATE api_keys SET rate_limit = $2 WHERE id = $1', [keyId, limit]);
  return result.rowCount === 1;
}
