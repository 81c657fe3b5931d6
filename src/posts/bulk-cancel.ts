// POST /v1/posts/bulk/:id/cancel: stops a queued or running bulk import between chunks of rows. The
// runner (bulk-runner.ts) holds the job's row lock from reading a chunk's pending rows until their
// outcomes are recorded, and the cancel takes the same lock: it waits for a chunk under way to be
// recorded, then marks every row still pending `cancelled` and the job with them. A row is thus
// either created, with its post, or cancelled, without one — never half. The runner's next chunk finds
// the job no longer `running` and stops. Posts already created stay; DELETE /v1/posts/:id cancels one.
import { RequestError } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { getBulkImport, type BulkImportJson, type BulkImportRow } from './bulk-imports.ts';

/** The create endpoint whose Idempotency-Keys the runner's rows are created under (create.ts). */
const CREATE_ENDPOINT = 'POST /v1/posts';

/** Cancels the job and answers it as GET does; 404 for another organization's, 409 when nothing is left to do. */
export async function cancelBulkImport(db: Db, orgId: number, encodedId: string): Promise<BulkImportJson> {
  const id = decodeId(encodedId);
  await withTransaction(db, async (tx) => {
    const { rows } = id === undefined ? { rows: [] } : await tx.query<BulkImportRow>('SELECT * FROM bulk_imports WHERE id = $1 AND org_id = $2 FOR UPDATE', [id, orgId]);
    const job = rows[0];
    if (!job) throw new RequestError(404, 'Bulk import not found', { code: 'not_found' });
    // Cancelling twice is asking for the state the job is in: it answers the job as it is.
    if (job.status === 'cancelled') return;
    const recovered = await recordCreatedRows(tx, job);
    const cancelled = await tx.query("UPDATE bulk_import_rows SET status = 'cancelled' WHERE import_id = $1 AND status = 'pending'", [job.id]);
    if (job.status === 'completed' || (cancelled.rowCount ?? 0) === 0) throw alreadyDone(job.id);
    await tx.query(
      `UPDATE bulk_imports SET status = 'cancelled', cancelled = $2, created = created + $3, cancelled_at = now(), updated_at = now(), lease_until = NULL
        WHERE id = $1`,
      [job.id, cancelled.rowCount, recovered],
    );
  });
  return getBulkImport(db, orgId, encodedId);
}

function alreadyDone(id: number): RequestError {
  return new RequestError(409, 'This bulk import has already completed: every row is done, nothing is left to cancel. Its posts stay; cancel one with DELETE /v1/posts/:id (the rows\' postId in GET /v1/posts/bulk/:id).', {
    code: 'bulk_import_completed',
    details: [{ field: 'id', message: `bulk import ${encodeId(id)} has completed` }],
  });
}

/**
 * Pending rows whose post exists all the same: a worker created it under the row's Idempotency-Key,
 * then died before recording it (the next worker would have replayed it). They are recorded as
 * created, with their post, instead of being cancelled; answers how many.
 */
async function recordCreatedRows(tx: Tx, job: BulkImportRow): Promise<number> {
  const { rows } = await tx.query<{ row_number: number; post_id: string }>(
    `SELECT r.row_number, k.response_body->'post'->>'id' AS post_id
       FROM bulk_import_rows r
       JOIN idempotency_keys k ON k.org_id = $2 AND k.endpoint = $3 AND k.key = $4 || ':' || r.row_number
      WHERE r.import_id = $1 AND r.status = 'pending'`,
    [job.id, job.org_id, CREATE_ENDPOINT, job.row_key],
  );
  const created = rows.flatMap((r) => {
    const postId = decodeId(r.post_id);
    return postId === undefined ? [] : [{ row_number: r.row_number, post_id: postId }];
  });
  if (created.length === 0) return 0;
  await tx.query(
    `UPDATE bulk_import_rows r SET status = 'created', post_id = o.post_id
       FROM jsonb_to_recordset($2::jsonb) AS o(row_number int, post_id bigint)
      WHERE r.import_id = $1 AND r.row_number = o.row_number`,
    [job.id, JSON.stringify(created)],
  );
  return created.length;
}
