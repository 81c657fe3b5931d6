// The worker's side of bulk imports: takes a queued job (or one whose worker died: its lease ran out)
// and creates its rows' posts, a chunk of rows at a time, through the create writer (create.ts) — the
// very path of POST /v1/posts, so each row is judged again as a create is and its post is written with
// its containers, media and targets in one transaction, never half. Each row's create carries the
// Idempotency-Key `<job's secret row_key>:<row>`: the key's response is stored in the transaction that
// stores the post, so a row created by a worker that died before recording it is replayed, not created
// again, when the job resumes. Each chunk runs inside one transaction that locks the job's row while
// the run still holds it (`runner`) and it is `running`: the chunk's outcomes, the job's counts and its
// lease are written there, and a cancel (bulk-cancel.ts), which takes the same lock, falls between two
// chunks. The last chunk ends the job with `bulk_import.completed` in the same transaction.
import type { Logger } from 'pino';
import { claimJob, msUntilNextJob } from '../background/jobs.ts';
import { startLoop } from '../background/loop.ts';
import type { Config } from '../config.ts';
import { RequestError } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { tokenOfPublicUrl } from '../media/context.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import { accountQuotas } from '../publishing/admission.ts';
import { createPublishWaker } from '../publishing/wake.ts';
import type { AccountQuotas } from '../queues/next-slot.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import { BULK_IMPORTS_CHANNEL, type BulkImportRow, type RowError } from './bulk-imports.ts';
import { createPostWriter, type CreatedBody, type CreateOutcome } from './create.ts';
import { parseCreateBody } from './validate.ts';

/** How long a worker holds a job without renewing it (each chunk renews it); past it another worker takes the job over. */
const DEFAULT_LEASE_MS = 30_000;
/** Rows submitted to the writer at once: they share its transactions (a batch holds up to 100 creates). */
const CHUNK = 100;
/** The wait before rows another worker's create still holds (409 busy) are tried again. */
const BUSY_RETRY_MS = 200;

/** What POST /v1/posts judges media URLs and "next-free-slot" by, from the installation's settings. */
export function createSettings(config: Config, networks: NetworkRegistry): { fetch: FetchPolicy; quotas: AccountQuotas } {
  return {
    fetch: { allowLoopback: config.allowLoopbackFetch, isOwnMedia: (url) => tokenOfPublicUrl(config.publicBaseUrl, url) !== undefined },
    quotas: accountQuotas(networks.all, config.publishing.accountQuotas),
  };
}

interface Deps {
  db: Db;
  logger: Logger;
  config: Config;
  networks: NetworkRegistry;
}

interface PendingRow {
  row_number: number;
  body: unknown;
  problem: RowError | null;
}

type RowOutcome = { row: number; postId: number } | { row: number; error: RowError };

export interface BulkImportRunner { stop(): Promise<void> }

/** Runs bulk imports one at a time, woken by BULK_IMPORTS_CHANNEL; `leaseMs` as the import runner's (the publishing heartbeat). */
export function startBulkImportRunner(deps: Deps, options: { leaseMs?: number; pollMs?: number } = {}): BulkImportRunner {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const { fetch, quotas } = createSettings(deps.config, deps.networks);
  const writer = createPostWriter(deps.db, quotas);
  const waker = createPublishWaker(deps.db);
  const create = async (job: BulkImportRow, row: PendingRow): Promise<CreateOutcome> => {
    const now = new Date();
    const outcome = await writer.submit({
      orgId: job.org_id, key: `${job.row_key}:${row.row_number}`, body: row.body, parsed: parseCreateBody(row.body, now, fetch), now, requireApproval: job.require_approval,
    });
    if (outcome.dueAt !== undefined) waker.wake(outcome.dueAt);
    return outcome;
  };
  const loop = startLoop<BulkImportRow>(deps.db, deps.logger, {
    label: 'bulk import runner',
    channel: BULK_IMPORTS_CHANNEL,
    claim: async () => {
      const job = await claimJob<BulkImportRow>(deps.db, 'bulk_imports', leaseMs);
      return job ? [job] : [];
    },
    msUntilNextDue: () => msUntilNextJob(deps.db, 'bulk_imports'),
    run: (job) => runJob(deps.db, job, leaseMs, create),
  }, { concurrency: 1, ...(options.pollMs ? { pollMs: options.pollMs } : {}) });
  return {
    async stop() {
      await loop.stop();
      await waker.close();
    },
  };
}


async function runJob(db: Db, job: BulkImportRow, leaseMs: number, create: (job: BulkImportRow, row: PendingRow) => Promise<CreateOutcome>): Promise<void> {
  for (;;) {
    // The job's row lock is held from reading the chunk until its outcomes are recorded: a cancel
    // (bulk-cancel.ts) waits for the chunk under way, and the chunk never starts on a cancelled job.
    const { held, retry } = await withTransaction(db, async (tx) => {
      if (!(await holdJob(tx, job))) return { held: 'lost' as const, retry: false };
      const { rows } = await tx.query<PendingRow>(
        `SELECT row_number, body, problem FROM bulk_import_rows WHERE import_id = $1 AND status = 'pending' ORDER BY row_number LIMIT ${CHUNK}`, [job.id],
      );
      // Submitted together, in row order: the writer's batches take "next-free-slot" slots in arrival order.
      const settled = await Promise.allSettled(rows.map((row) => (row.problem ? Promise.resolve(undefined) : create(job, row))));
      const outcomes = settled.flatMap((result, i) => outcomeOf(rows[i]!, result));
      return { held: await record(tx, job, outcomes, leaseMs, rows.length === 0), retry: outcomes.length < rows.length };
    });
    if (held === 'lost' || held === 'done') return;
    if (retry) await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
  }
}

/** Locks the job while this run still holds it and it is still running (not cancelled, not taken over). */
async function holdJob(tx: Tx, job: BulkImportRow): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM bulk_imports WHERE id = $1 AND runner = $2 AND status = $3 FOR UPDATE', [job.id, job.runner, 'running']);
  return rows.length > 0;
}

/**
 * A row's outcome; none while another run's create still holds its key (it is tried again). An error
 * that is no refusal (the database gone) ends the run: the lease brings the job back.
 */
function outcomeOf(row: PendingRow, result: PromiseSettledResult<CreateOutcome | undefined>): RowOutcome[] {
  if (row.problem) return [{ row: row.row_number, error: row.problem }];
  if (result.status === 'rejected') {
    const error: unknown = result.reason;
    if (!(error instanceof RequestError)) throw error;
    if (error.code === 'idempotency_in_progress') return [];
    return [{ row: row.row_number, error: { error: error.message, ...(error.code ? { code: error.code } : {}), ...(error.details ? { details: error.details } : {}) } }];
  }
  const post = (result.value!.body as CreatedBody).post;
  return [{ row: row.row_number, postId: decodeId(post.id)! }];
}

/** Writes a chunk's outcomes and renews the lease, or ends the job when no row is left (the job is held: holdJob). */
async function record(tx: Tx, job: BulkImportRow, outcomes: RowOutcome[], leaseMs: number, finished: boolean): Promise<'more' | 'done'> {
  const created = outcomes.filter((o) => 'postId' in o);
  const failed = outcomes.filter((o) => 'error' in o);
  if (outcomes.length) {
    await tx.query(
      `UPDATE bulk_import_rows r SET status = o.status, post_id = o.post_id, error = o.error
         FROM jsonb_to_recordset($2::jsonb) AS o(row_number int, status text, post_id bigint, error jsonb)
        WHERE r.import_id = $1 AND r.row_number = o.row_number AND r.status = 'pending'`,
      [job.id, JSON.stringify(outcomes.map((o) => ('postId' in o
        ? { row_number: o.row, status: 'created', post_id: o.postId, error: null }
        : { row_number: o.row, status: 'failed', post_id: null, error: o.error })))],
    );
  }
  const { rows } = await tx.query<BulkImportRow>(
    `UPDATE bulk_imports SET created = created + $2, failed = failed + $3, updated_at = now(), lease_until = now() + $4 * interval '1 millisecond'
      WHERE id = $1 RETURNING *`,
    [job.id, created.length, failed.length, leaseMs],
  );
  if (!finished) return 'more';
  await finish(tx, rows[0]!);
  return 'done';
}

/** Ends the job with its event: the counts and the numbers of the rows that failed (their errors are on the job's rows). */
async function finish(tx: Tx, job: BulkImportRow): Promise<void> {
  await tx.query("UPDATE bulk_imports SET status = 'completed', completed_at = now(), lease_until = NULL WHERE id = $1", [job.id]);
  const { rows } = await tx.query<{ row_number: number }>("SELECT row_number FROM bulk_import_rows WHERE import_id = $1 AND status = 'failed' ORDER BY row_number", [job.id]);
  await emitEvent(tx, job.org_id, 'bulk_import.completed', {
    bulkImportId: encodeId(job.id), status: 'completed', total: job.total, created: job.created, failed: job.failed, failedRows: rows.map((r) => r.row_number),
  });
}
