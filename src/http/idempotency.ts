// Idempotency-Key (spec rule 6, DESIGN §8): per (org, endpoint, key), the first request's response is
// stored in the same transaction that did the work, under a transaction-scoped advisory lock.
// A concurrent duplicate finds the lock taken (409 + Retry-After); a later one gets the stored
// response (Idempotency-Replayed: true); the same key with another body is a 422.
import { createHash } from 'node:crypto';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { RequestError } from '../errors.ts';

export const IDEMPOTENCY_TTL_HOURS = 24;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface IdempotentResult extends StoredResponse {
  replayed: boolean;
}

/** Validates the header value: 400 for a malformed key. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw) || !KEY_PATTERN.test(raw)) {
    throw new RequestError(400, 'Malformed Idempotency-Key: use 1 to 255 printable ASCII characters (a UUID v4 is recommended)', {
      code: 'invalid_idempotency_key',
      details: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }],
    });
  }
  return raw;
}

/**
 * Runs `work` in a transaction, exactly once per idempotency key. Only 2xx responses are stored:
 * a rejected request did nothing, so retrying it with the same key re-evaluates it.
 */
export async function runIdempotent(
  db: Db,
  scope: { orgId: number; endpoint: string; key: string | undefined; body: unknown },
  work: (tx: Tx) => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  return withTransaction(db, async (tx) => {
    const { orgId, endpoint, key } = scope;
    if (key === undefined) return { ...(await work(tx)), replayed: false };
    const locked = await tx.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [
      `idempotency:${orgId}:${endpoint}:${key}`,
    ]);
    if (!locked.rows[0]!.ok) {
      throw new RequestError(409, 'A request with this Idempotency-Key is still in progress; retry after the Retry-After interval', {
        code: 'idempotency_in_progress',
        headers: { 'retry-after': '1' },
      });
    }
    const fingerprint = fingerprintOf(scope.body);
    const existing = await tx.query<{ fingerprint: Buffer; response_status: number; response_body: unknown; response_headers: Record<string, string> }>(
      `SELECT fingerprint, response_status, response_body, response_headers FROM idempotency_keys
        WHERE org_id = $1 AND endpoint = $2 AND key = $3 AND created_at > now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
      [orgId, endpoint, key],
    );
    const stored = existing.rows[0];
    if (stored) {
      if (!stored.fingerprint.equals(fingerprint)) {
        throw new RequestError(422, 'This Idempotency-Key was already used with a different request body; use a new key', {
          code: 'idempotency_key_reuse',
        });
      }
      return { status: stored.response_status, body: stored.response_body, headers: stored.response_headers, replayed: true };
    }
    const response = await work(tx);
    if (response.status >= 200 && response.status < 300) {
      // An expired record for the same key may still be there until the cleanup job runs.
      await tx.query(
        `INSERT INTO idempotency_keys (org_id, endpoint, key, fingerprint, response_status, response_body, response_headers)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (org_id, endpoint, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
           response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
           response_headers = EXCLUDED.response_headers, created_at = now()`,
        [orgId, endpoint, key, fingerprint, response.status, JSON.stringify(response.body), JSON.stringify(response.headers)],
      );
    }
    return { ...response, replayed: false };
  });
}

/** SHA-256 of the body in canonical form (object keys sorted), so key order does not matter. */
export function fingerprintOf(body: unknown): Buffer {
  return createHash('sha256').update(canonicalJson(body)).digest();
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const result = await db.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`);
  return result.rowCount ?? 0;
}
