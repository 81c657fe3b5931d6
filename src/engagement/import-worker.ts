// The worker's side of imports: takes a queued job (or one whose worker died: its lease ran out),
// pages through the account's own posts on the network (capability `ownPosts`), stores each new one
// as a published post of the org, and ends the job with `import.completed` or `import.failed`.
//
// Each page is one transaction: the posts it stores, the job's counts and the network's cursor of
// the next page commit together, under a per-account lock, so a job resumed after a crash (or two
// imports of one account at once) never stores a post twice and never loses a count.
import type { Logger } from 'pino';
import { claimJob, msUntilNextJob } from '../background/jobs.ts';
import { startLoop } from '../background/loop.ts';
import { withTransaction, type Db, type Tx } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import type { OwnPost } from '../networks/capabilities.ts';
import { emitEvent } from '../webhooks/outbox.ts';
import { callAsAccount, loadAccount, type AccountCallDeps } from '../accounts/session.ts';
import { IMPORTS_CHANNEL, type ImportRow } from './imports.ts';
import { storableCopy } from '../validation/json-input.ts';

/** How long a worker holds a job without renewing it (each page renews it); past it another worker takes the job over. */
const DEFAULT_LEASE_MS = 30_000;

interface JobRow extends ImportRow { cursor: string | null; runner: string }

export interface ImportRunner { stop(): Promise<void> }

/**
 * Runs import jobs one at a time in the loop of every background queue (background/loop.ts), woken
 * by IMPORTS_CHANNEL when a job is created. `leaseMs`: the publishing workers' heartbeat
 * (CRIER_PUBLISH_HEARTBEAT_SECONDS): a killed worker's job is resumed by another after it.
 * `pollMs`: how often it looks while it cannot listen.
 */
export function startImportRunner(deps: AccountCallDeps & { logger: Logger }, options: { pollMs?: number; leaseMs?: number } = {}): ImportRunner {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const loop = startLoop<JobRow>(deps.db, deps.logger, {
    label: 'import runner',
    channel: IMPORTS_CHANNEL,
    claim: async () => {
      const job = await claimJob<JobRow>(deps.db, 'imports', leaseMs);
      return job ? [job] : [];
    },
    msUntilNextDue: () => msUntilNextJob(deps.db, 'imports'),
    run: (job) => runJob(deps, job, leaseMs),
  }, { concurrency: 1, ...(options.pollMs ? { pollMs: options.pollMs } : {}) });
  return { stop: () => loop.stop() };
}


async function runJob(deps: AccountCallDeps, job: JobRow, leaseMs: number): Promise<void> {
  const { active, credentials } = await loadAccount(deps.db, deps.box, job.account_id);
  const network = deps.networks.get(credentials.network);
  const ownPosts = deps.networks.capabilities(network.id).ownPosts;
  if (!active || !ownPosts) {
    await withTransaction(deps.db, (tx) => failJob(tx, job, active ? `${network.label} can no longer list the account's posts` : `The ${network.label} account is disconnected: reconnect it and import again`));
    return;
  }
  let cursor = job.cursor ?? undefined;
  for (;;) {
    let page;
    try {
      page = await callAsAccount(deps, credentials, (session) => ownPosts(session, { since: job.since ?? undefined, until: job.until ?? undefined, cursor }));
    } catch (error) {
      await withTransaction(deps.db, (tx) => failJob(tx, job, (error as Error).message));
      return;
    }
    const outcome = await withTransaction(deps.db, (tx) => storePage(tx, job, page.items, page.next, leaseMs));
    if (outcome === 'lost' || outcome === 'done') return;
    cursor = page.next;
  }
}

/** Ends a job the network stopped, with the counts of the pages stored before (unless another worker holds it now). */
async function failJob(tx: Tx, job: JobRow, error: string): Promise<void> {
  const current = await hold(tx, job);
  if (current) await finish(tx, current, error);
}

/** The job as stored, locked, while this run still holds it. */
async function hold(tx: Tx, job: JobRow): Promise<JobRow | undefined> {
  const { rows } = await tx.query<JobRow>('SELECT * FROM imports WHERE id = $1 AND runner = $2 AND status = $3 FOR UPDATE', [job.id, job.runner, 'running']);
  return rows[0];
}

/** Stores one page, moves the job on; 'done' when the job ended, 'lost' when another worker holds it now. */
async function storePage(tx: Tx, job: JobRow, items: OwnPost[], next: string | undefined, leaseMs: number): Promise<'more' | 'done' | 'lost'> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`import:${job.account_id}`]);
  const current = await hold(tx, job);
  if (!current) return 'lost';
  let { imported, skipped, failed } = current;
  let passedSince = false;
  // A network's text PostgreSQL cannot hold (a NUL) would fail the page on every retry.
  for (const item of items.map(storableCopy)) {
    if (imported + skipped + failed >= current.max_posts) break;
    const created = item.createdAt ? new Date(item.createdAt) : null;
    if (created && current.until && created > current.until) continue;
    if (created && current.since && created < current.since) {
      passedSince = true;
      continue;
    }
    if (item.unsupported) failed++;
    else if (await known(tx, current.account_id, item.platformId)) skipped++;
    else {
      await storePost(tx, current, item);
      imported++;
    }
  }
  const done = !next || passedSince || imported + skipped + failed >= current.max_posts;
  await tx.query(
    `UPDATE imports SET imported = $2, skipped = $3, failed = $4, cursor = $5, exhausted = $6, updated_at = now(),
            lease_until = now() + $7 * interval '1 millisecond' WHERE id = $1`,
    [job.id, imported, skipped, failed, next ?? null, done, leaseMs],
  );
  if (done) await finish(tx, { ...current, imported, skipped, failed });
  return done ? 'done' : 'more';
}

/** Crier already has it: published through Crier (any container) or imported before. */
async function known(tx: Tx, accountId: number, platformId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM targets WHERE account_id = $1 AND platform_post_id = $2
     UNION ALL
     SELECT 1 FROM target_parts tp JOIN targets t ON t.id = tp.target_id WHERE tp.platform_id = $2 AND t.account_id = $1
     LIMIT 1`,
    [accountId, platformId],
  );
  return rows.length > 0;
}

/** A published post of the org with one container (its text) and one published destination. */
async function storePost(tx: Tx, job: ImportRow, item: OwnPost): Promise<void> {
  await tx.query(
    `WITH p AS (INSERT INTO posts (org_id, published_at, created_at, completed_at, import_id)
                VALUES ($1, $2, $2, now(), $3) RETURNING id),
          c AS (INSERT INTO containers (org_id, post_id, position, content) SELECT $1, id, 0, $4 FROM p),
          t AS (INSERT INTO targets (org_id, post_id, account_id, status, platform_post_id, platform_post_url, published_at)
                SELECT $1, id, $5, 'published', $6, $7, $2 FROM p RETURNING id)
     INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url, ref)
     SELECT id, 0, $1, 'published', $6, $7, $8 FROM t`,
    [job.org_id, item.createdAt ? new Date(item.createdAt) : new Date(), job.id, item.text, job.account_id, item.platformId, item.url, item.ref ?? null],
  );
}

/**
 * Ends the job: `completed` when nothing failed, else `partial` (some imported) or `failed`, with the
 * event of the spec's data shape in the same transaction.
 */
async function finish(tx: Tx, job: ImportRow, error?: string): Promise<void> {
  const failedSome = job.failed > 0 || error !== undefined;
  const status = !failedSome ? 'completed' : job.imported > 0 ? 'partial' : 'failed';
  await tx.query(
    `UPDATE imports SET status = $2, error = $3, exhausted = true, completed_at = now(), updated_at = now(), lease_until = NULL WHERE id = $1`,
    [job.id, status, error ?? null],
  );
  const counts = { import_id: encodeId(job.id), imported: job.imported, skipped: job.skipped, failed: job.failed };
  if (status === 'completed') await emitEvent(tx, job.org_id, 'import.completed', { ...counts, status });
  else await emitEvent(tx, job.org_id, 'import.failed', { ...counts, status, ...(error ? { error } : {}) });
}
