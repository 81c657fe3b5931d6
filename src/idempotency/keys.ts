// Idempotency-Key (spec rule 6, docs/design.md §8): per (org, endpoint, key), the first request's response is
// stored in the same transaction that did the work, under a transaction-scoped advisory lock. Keys
// are claimed and stored a batch at a time: creates share transactions (db/group-commit.ts).
// A concurrent duplicate finds the lock taken (409 + Retry-After); a later one gets the stored
// response (Idempotency-Replayed: true); the same key with another body is a 422.
import { createHash } from 'node:crypto';
import { prepared, type Db, type Queryable } from '../db/pool.ts';
import { RequestError } from '../core/errors.ts';

export const IDEMPOTENCY_TTL_HOURS = 24;

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** What a request's key finds when its request is about to run. */
export type KeyClaim =
  /** A concurrent request holds the key: 409 with Retry-After. */
  | { kind: 'busy' }
  /** Held now by this transaction, nothing stored: run the request and store its 2xx response. */
  | { kind: 'claimed' }
  /** Held now, and an earlier request stored its response: replay it, or 422 for another body. */
  | { kind: 'stored'; sameBody: boolean; response: StoredResponse };

export interface KeyedRequest {
  orgId: number;
  key: string;
  fingerprint: Buffer;
}

/**
 * Takes each request's key for the rest of the transaction (a transaction-scoped advisory lock) and
 * reads the response stored under it, for a whole batch in one statement. The same key twice in one
 * batch is two concurrent requests: the later one is `busy` (the lock is re-entrant within a session,
 * so PostgreSQL would not tell). Each key is a primary-key probe (the LATERAL subquery, kept apart
 * by OFFSET 0): as a join, a plan made while the table was small scanned every stored key of the
 * endpoint for each batch — 7–30 ms per batch after 5,000 keys in the create benchmark.
 */
export async function claimIdempotencyKeys(tx: Queryable, endpoint: string, requests: KeyedRequest[]): Promise<KeyClaim[]> {
  const seen = new Set<string>();
  const duplicate = requests.map((r) => {
    const id = `${r.orgId}:${r.key}`;
    const again = seen.has(id);
    seen.add(id);
    return again;
  });
  const first = requests.filter((_, i) => !duplicate[i]);
  const { rows } = await tx.query<{ ok: boolean; fingerprint: Buffer | null; response_status: number; response_body: unknown; response_headers: Record<string, string> }>({
    ...prepared(`WITH r AS MATERIALIZED (
        SELECT r.ord, r.org_id, r.key, pg_try_advisory_xact_lock(hashtextextended('idempotency:' || r.org_id || ':' || $1 || ':' || r.key, 0)) AS ok
          FROM unnest($2::bigint[], $3::text[]) WITH ORDINALITY AS r(org_id, key, ord)
      )
      SELECT r.ok, k.fingerprint, k.response_status, k.response_body, k.response_headers
        FROM r LEFT JOIN LATERAL (
               SELECT * FROM idempotency_keys k
                WHERE r.ok AND k.org_id = r.org_id AND k.endpoint = $1 AND k.key = r.key
                  AND k.created_at > now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
               OFFSET 0) AS k ON true
       ORDER BY r.ord`),
    values: [endpoint, first.map((r) => r.orgId), first.map((r) => r.key)],
  });
  let next = 0;
  return requests.map((request, i): KeyClaim => {
    if (duplicate[i]) return { kind: 'busy' };
    const row = rows[next++]!;
    if (!row.ok) return { kind: 'busy' };
    if (!row.fingerprint) return { kind: 'claimed' };
    return {
      kind: 'stored',
      sameBody: row.fingerprint.equals(request.fingerprint),
      response: { status: row.response_status, body: row.response_body, headers: row.response_headers },
    };
  });
}

/** The error a request gets for a claim it cannot run under. */
export function claimError(claim: Exclude<KeyClaim, { kind: 'claimed' }>): RequestError | undefined {
  if (claim.kind === 'busy') {
    return new RequestError(409, 'A request with this Idempotency-Key is still in progress; retry after the Retry-After interval', {
      code: 'idempotency_in_progress',
      headers: { 'retry-after': '1' },
    });
  }
  if (!claim.sameBody) {
    return new RequestError(422, 'This Idempotency-Key was already used with a different request body; use a new key', {
      code: 'idempotency_key_reuse',
    });
  }
  return undefined;
}

/**
 * Stores the 2xx responses of claimed keys, in the transaction that did the work (one statement for
 * the batch). Only 2xx responses are stored: a rejected request did nothing, so retrying it with the
 * same key re-evaluates it. An expired record for the same key may remain until the cleanup job runs,
 * and is replaced.
 *
 * A live record is never replaced: the claim reads with the snapshot its statement took before the
 * lock, so a request that committed the same key in between holds no lock any more and is not seen —
 * the claim says `claimed` and the work is done a second time. That work must not commit: this
 * throws `KeyCommittedMeanwhile`, a 409 like any busy key, and the caller's transaction rolls back
 * (a batch of creates then runs each request alone, and this one replays the stored response).
 */
export async function storeIdempotentResponses(tx: Queryable, endpoint: string, entries: { request: KeyedRequest; response: StoredResponse }[]): Promise<void> {
  const stored = entries.filter((e) => e.response.status >= 200 && e.response.status < 300);
  if (stored.length === 0) return;
  const { rowCount } = await tx.query({
    ...prepared(`INSERT INTO idempotency_keys (org_id, endpoint, key, fingerprint, response_status, response_body, response_headers)
      SELECT r.org_id, $1, r.key, r.fingerprint, r.status, r.body::jsonb, r.headers::jsonb
        FROM unnest($2::bigint[], $3::text[], $4::bytea[], $5::int[], $6::text[], $7::text[]) AS r(org_id, key, fingerprint, status, body, headers)
      ON CONFLICT (org_id, endpoint, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
        response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
        response_headers = EXCLUDED.response_headers, created_at = now()
        WHERE idempotency_keys.created_at <= now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`),
    values: [
      endpoint,
      stored.map((e) => e.request.orgId),
      stored.map((e) => e.request.key),
      stored.map((e) => e.request.fingerprint),
      stored.map((e) => e.response.status),
      stored.map((e) => JSON.stringify(e.response.body)),
      stored.map((e) => JSON.stringify(e.response.headers)),
    ],
  });
  if (rowCount !== stored.length) throw new KeyCommittedMeanwhile();
}

/** A key's response was committed by another request after this one's claim read (see storeIdempotentResponses). */
export class KeyCommittedMeanwhile extends RequestError {
  constructor() {
    super(409, 'A request with this Idempotency-Key has just completed; retry after the Retry-After interval to receive its response', {
      code: 'idempotency_in_progress',
      headers: { 'retry-after': '1' },
    });
  }
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
