// The publishing queue is the targets table itself (migration 010): a target is due at `due_at`, and
// workers claim due targets in batches. This file is the queue's SQL: claiming, how long until the
// next target is due, the workers' leases, and handing the targets of a dead worker to the others.
import os from 'node:os';
import type { SealedAccount } from '../accounts/session.ts';
import { prepared, type Queryable } from '../db/pool.ts';

/** A worker looks at the next due time at least this often, notified or not. */
export const WORKER_MAX_SLEEP_MS = 1000;

/** LISTEN/NOTIFY channel: "targets are due now, or sooner than you planned to look". Payload: epoch ms, or empty for now. */
export const PUBLISH_CHANNEL = 'crier_publish';

/** A claimed target as the claim statement returns it, with its account's row, tokens still sealed (claim.ts opens them). */
export interface ClaimRow extends Omit<SealedAccount, 'id'> {
  target_id: number;
  post_id: number;
  attempt_id: number;
  attempt_count: number;
  /** Of attempt_count, the attempts the network refused (429s, spent quotas): not counted against the attempts allowed. */
  refusals: number;
  /** The attempt this claim superseded: the target was left mid-attempt by a worker that died. */
  previous_attempt_id: number | null;
  checkpoint: Record<string, unknown> | null;
  /** The checkpoint was stored by a wait (true) or kept through a retry (false); null without one. */
  after_wait: boolean | null;
  /** Every account the post goes to (its completion event names them). */
  post_account_ids: number[];
  network_options: Record<string, Record<string, unknown>> | null;
  process_media: boolean;
  account_id: number;
  token_expires_at: Date | null;
  containers: { content: string; media: { url: string; filename: string; altText: string | null }[] }[];
  /** Milliseconds until the next target not claimed here is due (null: none queued), so that a worker need not ask. */
  next_due_ms: number | null;
}

/**
 * Claims up to `limit` due targets for `workerId`, earliest due first, in one statement: each becomes
 * `publishing` with a fresh attempt (the fence: only the target's current attempt may publish or
 * record), an attempt a dead worker left unfinished is marked superseded, and everything the
 * publish needs comes back with it. SKIP LOCKED: concurrent claims (other workers, the same worker's
 * next batch) take disjoint targets, and a target PATCH or DELETE holds is left alone — they lock
 * the post, then its targets, so a claim never waits and never deadlocks with them.
 */
export async function claimDue(db: Queryable, workerId: number, limit: number): Promise<ClaimRow[]> {
  const { rows } = await db.query<ClaimRow>({
    ...prepared(`WITH due AS (
       SELECT id, current_attempt_id FROM targets
        WHERE due_at <= now()
        ORDER BY due_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     ), superseded AS (
       -- Only a dead worker's attempt is left unfinished, so most claims have none: the uncorrelated
       -- condition is checked once, before anything is read, and the join is skipped. (Planned once
       -- per connection, the join scanned every attempt when its plan was made on a small table:
       -- 70 ms of a 93 ms claim in bench:publish.)
       UPDATE attempts a SET finished_at = now(), outcome = 'superseded'
         FROM due WHERE (SELECT bool_or(current_attempt_id IS NOT NULL) FROM due)
                    AND a.id = due.current_attempt_id AND a.finished_at IS NULL
     ), claimed AS (
       UPDATE targets t
          SET status = 'publishing', due_at = NULL, attempt_count = t.attempt_count + 1,
              current_attempt_id = nextval(pg_get_serial_sequence('attempts', 'id'))
         FROM due WHERE t.id = due.id
       RETURNING t.id, t.org_id, t.post_id, t.account_id, t.current_attempt_id, t.attempt_count, t.refusals, t.checkpoint,
                 due.current_attempt_id AS previous_attempt_id
     ), attempt AS (
       INSERT INTO attempts (id, org_id, target_id, worker_id)
       SELECT current_attempt_id, org_id, id, $2 FROM claimed
     )
     SELECT c.id AS target_id, c.org_id, c.post_id, c.current_attempt_id AS attempt_id, c.attempt_count, c.refusals, c.previous_attempt_id, c.checkpoint,
            -- Kept by a wait or by a retry: the last finished attempt says which (read only then).
            CASE WHEN c.checkpoint IS NOT NULL THEN
              (SELECT l.outcome = 'waiting' FROM attempts l WHERE l.target_id = c.id AND l.finished_at IS NOT NULL ORDER BY l.id DESC LIMIT 1)
            END AS after_wait,
            array(SELECT o.account_id FROM targets o WHERE o.post_id = c.post_id) AS post_account_ids,
            p.network_options, p.process_media,
            a.id AS account_id, a.network, a.username, a.network_unique_id, a.service_url, a.is_active,
            a.access_token_enc, a.refresh_token_enc, a.credential_enc, a.token_expires_at, a.managed_app,
            (SELECT json_agg(json_build_object('content', k.content, 'media',
                (SELECT coalesce(json_agg(json_build_object('url', m.url, 'filename', m.filename, 'altText', m.alt_text) ORDER BY m.position), '[]')
                   FROM container_media m WHERE m.container_id = k.id)) ORDER BY k.position)
               FROM containers k WHERE k.post_id = c.post_id) AS containers,
            (SELECT extract(epoch FROM min(due_at) - clock_timestamp()) * 1000 FROM targets WHERE due_at > now())::float8 AS next_due_ms
       FROM claimed c
      CROSS JOIN LATERAL (SELECT network_options, process_media FROM posts WHERE id = c.post_id OFFSET 0) AS p
      CROSS JOIN LATERAL (SELECT * FROM social_accounts WHERE id = c.account_id OFFSET 0) AS a
      ORDER BY c.id`),
    values: [limit, workerId],
  });
  return rows;
}

/**
 * Milliseconds until the earliest queued target is due, on the database's clock (0 when one is due
 * already); undefined when nothing is queued.
 */
export async function msUntilNextDue(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ ms: number | null }>(
    prepared('SELECT extract(epoch FROM (SELECT min(due_at) FROM targets WHERE due_at IS NOT NULL) - clock_timestamp()) * 1000 AS ms'),
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, Number(ms));
}

/** A worker process's lease: registered at start, renewed while it runs, removed when it stops. */
export async function registerWorker(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number }>('INSERT INTO publish_workers (host, pid) VALUES ($1, $2) RETURNING id', [os.hostname(), process.pid]);
  return rows[0]!.id;
}

/** Renews the lease; false when the row is gone (the worker was presumed dead and swept). */
export async function renewWorker(db: Queryable, workerId: number): Promise<boolean> {
  const { rowCount } = await db.query(prepared('UPDATE publish_workers SET alive_at = now() WHERE id = $1'), [workerId]);
  return rowCount === 1;
}

export async function removeWorker(db: Queryable, workerId: number): Promise<void> {
  await db.query('DELETE FROM publish_workers WHERE id = $1', [workerId]);
}

/**
 * Makes the targets that dead workers were publishing due now, so that another worker claims them
 * (the claim supersedes the dead attempt; publishing then reconciles what it reserved). A worker is
 * dead when it has not renewed its lease for `leaseSeconds`, or its row is gone. The sweeper's own
 * targets are never handed over: it is running, whatever its lease says. (A worker starved of CPU
 * for longer than its lease used to sweep itself when its timers caught up, superseding every
 * publish it had in flight; another worker may still take them over, and the fence settles it.)
 * Rows of workers dead for a day are removed. Returns how many targets were handed over.
 */
export async function sweepDeadWorkers(db: Queryable, leaseSeconds: number, sweeperId: number): Promise<number> {
  const { rows } = await db.query<{ handed: number }>(
    `WITH handed AS (
       UPDATE targets t SET due_at = now()
         FROM attempts a
        WHERE t.status = 'publishing' AND t.due_at IS NULL AND a.id = t.current_attempt_id AND a.worker_id <> $2
          AND NOT EXISTS (SELECT 1 FROM publish_workers w WHERE w.id = a.worker_id AND w.alive_at > now() - make_interval(secs => $1))
       RETURNING 1
     ), forgotten AS (
       DELETE FROM publish_workers WHERE alive_at < now() - interval '1 day'
     )
     SELECT count(*)::int AS handed FROM handed`,
    [leaseSeconds, sweeperId],
  );
  return rows[0]!.handed;
}

/** Tells the workers that targets are due at `at` (now when omitted); sent when the transaction commits. */
export async function notifyDue(db: Queryable, at?: Date): Promise<void> {
  await db.query(`SELECT pg_notify('${PUBLISH_CHANNEL}', $1)`, [at ? String(at.getTime()) : '']);
}
