// POST /v1/posts/bulk (the real run) and GET /v1/posts/bulk/:id: the job and its rows are stored in
// one transaction, with the request's Idempotency-Key (spec rule 6, idempotency/keys.ts) and the
// notification that wakes a worker's bulk runner (bulk-runner.ts) sent at its commit. A retried
// request with the same key replays the stored 202: one job, whatever the retries.
import { randomUUID } from 'node:crypto';
import { RequestError, type FieldIssue } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { claimError, claimIdempotencyKeys, fingerprintOf, storeIdempotentResponses, type StoredResponse } from '../idempotency/keys.ts';
import type { BulkFormat, BulkRow } from './bulk-rows.ts';

/** LISTEN/NOTIFY channel: "a bulk import was queued", sent at its commit. */
export const BULK_IMPORTS_CHANNEL = 'crier_bulk_imports';

const ENDPOINT = 'POST /v1/posts/bulk';

export interface BulkImportRow {
  id: number;
  org_id: number;
  status: 'queued' | 'running' | 'completed' | 'cancelled';
  format: BulkFormat;
  row_key: string;
  require_approval: boolean;
  total: number;
  created: number;
  failed: number;
  cancelled: number;
  runner: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
}

/** A row's state: `pending` until the runner does it, `cancelled` when the job was cancelled first. */
export type BulkRowStatus = 'pending' | 'created' | 'failed' | 'cancelled';

/** A row's outcome as stored: its problem or create error is the 400 the row got ({error, code, details}). */
export interface RowError {
  error: string;
  code?: string;
  details?: FieldIssue[];
}

export interface BulkImportJson {
  id: string;
  status: BulkImportRow['status'];
  format: BulkFormat;
  total: number;
  /** Rows done (created + failed). */
  processed: number;
  created: number;
  failed: number;
  /** Rows that were still pending when the job was cancelled: no post was created for them. */
  cancelled: number;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  cancelledAt: string | null;
  /** Per row, once it is done: the post it created, or why it was refused. */
  rows?: { row: number; status: BulkRowStatus; postId?: string; error?: RowError }[];
}

export function toBulkImportJson(job: BulkImportRow): BulkImportJson {
  return {
    id: encodeId(job.id),
    status: job.status,
    format: job.format,
    total: job.total,
    processed: job.created + job.failed,
    created: job.created,
    failed: job.failed,
    cancelled: job.cancelled,
    createdAt: job.created_at.toISOString(),
    updatedAt: job.updated_at.toISOString(),
    completedAt: job.completed_at?.toISOString() ?? null,
    cancelledAt: job.cancelled_at?.toISOString() ?? null,
  };
}

export interface BulkSubmission {
  orgId: number;
  key: string | undefined;
  format: BulkFormat;
  /** The file as sent: a key's replay is checked against it. */
  text: string;
  rows: BulkRow[];
  requireApproval: boolean;
}

/** Stores the job and its rows (202), or replays the 202 a request with the same key stored. */
export async function queueBulkImport(db: Db, submission: BulkSubmission): Promise<StoredResponse & { replayed: boolean }> {
  return withTransaction(db, async (tx) => {
    const keyed = submission.key === undefined ? undefined : { orgId: submission.orgId, key: submission.key, fingerprint: fingerprintOf({ format: submission.format, text: submission.text }) };
    if (keyed) {
      const [claim] = await claimIdempotencyKeys(tx, ENDPOINT, [keyed]);
      if (claim!.kind !== 'claimed') {
        const error = claimError(claim!);
        if (error) throw error;
        if (claim!.kind === 'stored') return { ...claim!.response, replayed: true };
      }
    }
    const job = await insertJob(tx, submission);
    const response: StoredResponse = { status: 202, body: { success: true, data: toBulkImportJson(job) }, headers: {} };
    if (keyed) await storeIdempotentResponses(tx, ENDPOINT, [{ request: keyed, response }]);
    return { ...response, replayed: false };
  });
}

async function insertJob(tx: Queryable, submission: BulkSubmission): Promise<BulkImportRow> {
  const { rows } = await tx.query<BulkImportRow>(
    `WITH created AS (
       INSERT INTO bulk_imports (org_id, format, row_key, require_approval, total) VALUES ($1, $2, $3, $4, $5) RETURNING *
     ), stored AS (
       INSERT INTO bulk_import_rows (import_id, row_number, body, problem)
       SELECT created.id, (r->>'row')::int, r->'body', r->'problem' FROM created, jsonb_array_elements($6::jsonb) AS r
     )
     SELECT created.*, pg_notify('${BULK_IMPORTS_CHANNEL}', '') AS notified FROM created`,
    [
      submission.orgId, submission.format, randomUUID(), submission.requireApproval, submission.rows.length,
      JSON.stringify(submission.rows.map((row) => ('body' in row
        ? { row: row.row, body: row.body }
        : { row: row.row, problem: { error: 'The row is not a create body', code: 'validation_error', details: row.problem } }))),
    ],
  );
  return rows[0]!;
}

/** GET /v1/posts/bulk: the organization's jobs, newest first, without their rows; `count` is exact. */
export async function listBulkImports(db: Queryable, orgId: number, page: { limit?: number; offset?: number }): Promise<{ data: BulkImportJson[]; count: number; limit: number; offset: number }> {
  const limit = page.limit ?? 50;
  const offset = page.offset ?? 0;
  const { rows } = await db.query<BulkImportRow>('SELECT * FROM bulk_imports WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3', [orgId, limit, offset]);
  const { rows: counted } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM bulk_imports WHERE org_id = $1', [orgId]);
  return { data: rows.map(toBulkImportJson), count: counted[0]!.n, limit, offset };
}

/** The job with each row's outcome so far; 404 for another organization's job or an id that names none. */
export async function getBulkImport(db: Queryable, orgId: number, encodedId: string): Promise<BulkImportJson> {
  const id = decodeId(encodedId);
  const { rows } = id === undefined ? { rows: [] } : await db.query<BulkImportRow>('SELECT * FROM bulk_imports WHERE id = $1 AND org_id = $2', [id, orgId]);
  if (!rows[0]) throw new RequestError(404, 'Bulk import not found', { code: 'not_found' });
  const { rows: outcomes } = await db.query<{ row_number: number; status: BulkRowStatus; post_id: number | null; error: RowError | null }>(
    'SELECT row_number, status, post_id, error FROM bulk_import_rows WHERE import_id = $1 ORDER BY row_number', [id],
  );
  return {
    ...toBulkImportJson(rows[0]),
    rows: outcomes.map((o) => ({
      row: o.row_number,
      status: o.status,
      ...(o.post_id === null ? {} : { postId: encodeId(Number(o.post_id)) }),
      ...(o.error === null ? {} : { error: o.error }),
    })),
  };
}
