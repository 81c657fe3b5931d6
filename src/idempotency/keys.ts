// Idempotency-Key (spec rule 6, docs/design.md §8): per (org, endpoint, key), the first request's response is
// stored in the same transaction that did the work, under a transaction-scoped advisory lock. Keys
// are claimed and stored a batch at a time: a batch of creates (db/group-commit.ts) claims its keys,
// writes its posts and stores their responses in one statement (posts/create.ts, from the CTEs here);
// a bulk import claims and stores with the functions here, around its own write.
// A concurrent duplicate finds the lock taken (409 + Retry-After); a later one gets the stored
// response (Idempotency-Replayed: true); the same key with another body is a 422.
import { createHash } from 'node:crypto';
import pg from 'pg';
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
 * A batch's keys as the claim takes them: the first request of each (org, key). The same key twice in
 * one batch is two concurrent requests: the later one is `busy` (the lock is re-entrant within a
 * session, so PostgreSQL would not tell).
 */
export interface ClaimBatch {
  /** The claim's parameters (`claimsCte`): org ids, keys, fingerprints. */
  values: [number[], string[], Buffer[]];
  /** Each request's row in `claims` (its `ord`, from 1); null for a repeat of a key earlier in the batch. */
  ords: (number | null)[];
  /** The claim's rows, in order, as one claim per request of the batch. */
  read(rows: ClaimRow[]): KeyClaim[];
}

/** A row of `claims` (claimsCte). */
export interface ClaimRow {
  ok: boolean;
  stored: boolean;
  same_body: boolean;
  response_status: number;
  response_body: unknown;
  response_headers: Record<string, string>;
}

export function claimBatch(requests: KeyedRequest[]): ClaimBatch {
  const seen = new Set<string>();
  const duplicate = requests.map((r) => {
    const id = `${r.orgId}:${r.key}`;
    const again = seen.has(id);
    seen.add(id);
    return again;
  });
  const first = requests.filter((_, i) => !duplicate[i]);
  let ord = 0;
  return {
    values: [first.map((r) => r.orgId), first.map((r) => r.key), first.map((r) => r.fingerprint)],
    ords: duplicate.map((again) => (again ? null : ++ord)),
    read(rows) {
      if (rows.length !== first.length) throw new Error(`idempotency claim: ${rows.length} rows for ${first.length} keys`);
      let next = 0;
      return requests.map((_, i): KeyClaim => {
        if (duplicate[i]) return { kind: 'busy' };
        const row = rows[next++]!;
        if (!row.ok) return { kind: 'busy' };
        if (!row.stored) return { kind: 'claimed' };
        return { kind: 'stored', sameBody: row.same_body, response: { status: row.response_status, body: row.response_body, headers: row.response_headers } };
      });
    },
  };
}

/**
 * SQL: the CTEs that take each key of a ClaimBatch for the rest of the transaction (a
 * transaction-scoped advisory lock) and read the response stored under it. `claims` has a row per
 * key (`ord` from 1) with the ClaimRow columns; `endpoint`, `orgIds`, `keys` and `fingerprints` are
 * the statement's parameters ($n). Each key is a primary-key probe (the LATERAL subquery, kept apart
 * by OFFSET 0): as a join, a plan made while the table was small scanned every stored key of the
 * endpoint for each batch — 7–30 ms per batch after 5,000 keys in the create benchmark.
 *
 * The read uses the statement's snapshot, taken before the locks: a request that commits the same key
 * in between is not seen, and its key reads as claimed. `storedCte` refuses to store over it.
 */
export function claimsCte(endpoint: string, orgIds: string, keys: string, fingerprints: string): string {
  return `claim_locks AS MATERIALIZED (
        SELECT r.ord, r.org_id, r.key, r.fingerprint,
               pg_try_advisory_xact_lock(hashtextextended('idempotency:' || r.org_id || ':' || ${endpoint} || ':' || r.key, 0)) AS ok
          FROM unnest(${orgIds}::bigint[], ${keys}::text[], ${fingerprints}::bytea[]) WITH ORDINALITY AS r(org_id, key, fingerprint, ord)
      ), claims AS MATERIALIZED (
        SELECT l.ord, l.ok, k.fingerprint IS NOT NULL AS stored, k.fingerprint IS NOT DISTINCT FROM l.fingerprint AS same_body,
               k.response_status, k.response_body, k.response_headers
          FROM claim_locks l LEFT JOIN LATERAL (
                 SELECT * FROM idempotency_keys k
                  WHERE l.ok AND k.org_id = l.org_id AND k.endpoint = ${endpoint} AND k.key = l.key
                    AND k.created_at > now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
                 OFFSET 0) AS k ON true
      )`;
}

/** Takes the keys of a batch for the rest of the transaction and reads their stored responses (claimsCte): one statement. */
export async function claimIdempotencyKeys(tx: Queryable, endpoint: string, requests: KeyedRequest[]): Promise<KeyClaim[]> {
  const batch = claimBatch(requests);
  const { rows } = await tx.query<ClaimRow>({
    ...prepared(`WITH ${claimsCte('$1', '$2', '$3', '$4')} SELECT * FROM claims ORDER BY ord`),
    values: [endpoint, ...batch.values],
  });
  return batch.read(rows);
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
 * SQL: the CTE `stored`, storing the responses of the rows of `source` (columns org_id, key, fingerprint
 * bytea, status, body jsonb, headers jsonb) under `endpoint` ($n), in the transaction that did the
 * work. Only 2xx responses are to be stored: a rejected request did nothing, so retrying it with the
 * same key re-evaluates it. An expired record for the same key may remain until the cleanup job runs,
 * and is replaced.
 *
 * A live record is never replaced: a request that committed the same key after the claim's snapshot
 * was taken holds no lock any more and was not seen (claimsCte), so the work was done a second time
 * and must not commit. `allStored` makes the statement fail then (isKeyCommittedMeanwhile), and
 * nothing of it is written.
 */
export function storedCte(source: string, endpoint: string): string {
  return `stored AS (
        INSERT INTO idempotency_keys (org_id, endpoint, key, fingerprint, response_status, response_body, response_headers)
        SELECT s.org_id, ${endpoint}, s.key, s.fingerprint, s.status, s.body, s.headers FROM ${source} s
        ON CONFLICT (org_id, endpoint, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
          response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body,
          response_headers = EXCLUDED.response_headers, created_at = now()
          WHERE idempotency_keys.created_at <= now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
        RETURNING 1
      )`;
}

/** SQL: an expression that fails the statement unless `stored` (storedCte) stored `expected` rows (src/db/functions/idempotency.sql). */
export function allStored(expected: string): string {
  return `idempotency_all_stored(${expected}, (SELECT count(*) FROM stored))`;
}

/** The statement failed in allStored: a key's response was committed by another request meanwhile. */
export function isKeyCommittedMeanwhile(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.code === KEY_COMMITTED_MEANWHILE;
}

/** The SQLSTATE idempotency_all_stored raises (src/db/functions/idempotency.sql). */
const KEY_COMMITTED_MEANWHILE = 'CR409';

/**
 * Stores the 2xx responses of claimed keys (storedCte) in one statement. A response committed under
 * one of the keys meanwhile is a KeyCommittedMeanwhile, and the caller's transaction must roll back.
 */
export async function storeIdempotentResponses(tx: Queryable, endpoint: string, entries: { request: KeyedRequest; response: StoredResponse }[]): Promise<void> {
  const stored = entries.filter((e) => e.response.status >= 200 && e.response.status < 300);
  if (stored.length === 0) return;
  await tx.query({
    ...prepared(`WITH source AS (
        SELECT * FROM unnest($2::bigint[], $3::text[], $4::bytea[], $5::int[], $6::jsonb[], $7::jsonb[]) AS s(org_id, key, fingerprint, status, body, headers)
      ), ${storedCte('source', '$1')}
      SELECT ${allStored('$8')}`),
    values: [
      endpoint,
      stored.map((e) => e.request.orgId),
      stored.map((e) => e.request.key),
      stored.map((e) => e.request.fingerprint),
      stored.map((e) => e.response.status),
      stored.map((e) => JSON.stringify(e.response.body)),
      stored.map((e) => JSON.stringify(e.response.headers)),
      stored.length,
    ],
  }).catch((error: unknown) => {
    throw isKeyCommittedMeanwhile(error) ? new KeyCommittedMeanwhile() : error;
  });
}

/** A key's response was committed by another request after this one's claim read it (storedCte): a 409 like any busy key. */
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
