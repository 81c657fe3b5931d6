// Claiming a target for one attempt. Under row locks (post, then target — the order every writer
// uses), a job checks that it is still wanted (same generation, target not terminal) and fences
// out any earlier attempt: the attempt id becomes the target's current attempt, and only the
// current attempt may call the network or record a result.
import { openSecret } from '../accounts/secrets.ts';
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import type { AccountCredentials, ContainerInput, NetworkId } from '../networks/types.ts';
import type { SecretBox } from '../security/crypto.ts';
import type { PublishJob } from '../queue/queues.ts';

export interface Claim {
  attemptId: number;
  targetId: number;
  postId: number;
  orgId: number;
  generation: number;
  attemptCount: number;
  /** An earlier attempt never finished (a crash): its parts must be reconciled, not reposted. */
  interrupted: boolean;
  accountActive: boolean;
  account: AccountCredentials;
  block: Record<string, unknown> | undefined;
  containers: ContainerInput[];
  /** The post asked for processMedia: videos are fitted to the network before the adapter sees them. */
  processMedia: boolean;
}

const TERMINAL = ['published', 'failed', 'unknown', 'cancelled'];

export async function claimTarget(db: Db, box: SecretBox, job: PublishJob, jobId: string, leaseSeconds: number): Promise<Claim | 'busy' | undefined> {
  const claimed = await withTransaction(db, async (tx) => {
    const post = await tx.query<{ generation: number; cancelled_at: Date | null; is_draft: boolean; org_id: number; network_options: Record<string, Record<string, unknown>> | null; process_media: boolean }>(
      'SELECT generation, cancelled_at, is_draft, org_id, network_options, process_media FROM posts WHERE id = $1 FOR UPDATE',
      [job.postId],
    );
    const p = post.rows[0];
    if (!p || p.generation !== job.generation || p.cancelled_at || p.is_draft) return undefined; // stale job
    const target = await tx.query<{ status: string; current_attempt_id: number | null; attempt_count: number; account_id: number }>(
      'SELECT status, current_attempt_id, attempt_count, account_id FROM targets WHERE id = $1 AND post_id = $2 FOR UPDATE',
      [job.targetId, job.postId],
    );
    const t = target.rows[0];
    if (!t || TERMINAL.includes(t.status)) return undefined;
    if (t.current_attempt_id !== null) {
      // Another attempt is on it. Alive (its lease renewed lately): leave it alone and come back
      // later. Dead (a crash): fence it off and take over.
      const live = await tx.query(
        "SELECT 1 FROM attempts WHERE id = $1 AND finished_at IS NULL AND alive_at > now() - make_interval(secs => $2)",
        [t.current_attempt_id, leaseSeconds],
      );
      if (live.rowCount) return 'busy' as const;
      await tx.query("UPDATE attempts SET finished_at = now(), outcome = 'superseded' WHERE id = $1 AND finished_at IS NULL", [t.current_attempt_id]);
    }
    const attempt = await tx.query<{ id: number }>('INSERT INTO attempts (org_id, target_id, job_id) VALUES ($1, $2, $3) RETURNING id', [p.org_id, job.targetId, jobId]);
    const attemptId = attempt.rows[0]!.id;
    await tx.query(
      "UPDATE targets SET status = 'publishing', current_attempt_id = $2, attempt_count = attempt_count + 1 WHERE id = $1",
      [job.targetId, attemptId],
    );
    return { attemptId, orgId: p.org_id, accountId: t.account_id, attemptCount: t.attempt_count + 1, interrupted: t.current_attempt_id !== null, options: p.network_options, processMedia: p.process_media };
  });
  if (!claimed || claimed === 'busy') return claimed;
  const [account, containers] = await Promise.all([loadAccount(db, box, claimed.accountId), loadContainers(db, job.postId)]);
  return {
    attemptId: claimed.attemptId,
    targetId: job.targetId,
    postId: job.postId,
    orgId: claimed.orgId,
    generation: job.generation,
    attemptCount: claimed.attemptCount,
    interrupted: claimed.interrupted,
    accountActive: account.active,
    account: account.credentials,
    block: claimed.options?.[account.credentials.network],
    processMedia: claimed.processMedia,
    containers,
  };
}

/** Whether `attemptId` is still the target's current attempt (a newer one supersedes it). */
export async function isCurrentAttempt(db: Queryable, targetId: number, attemptId: number): Promise<boolean> {
  const { rows } = await db.query<{ current_attempt_id: number | null }>('SELECT current_attempt_id FROM targets WHERE id = $1', [targetId]);
  return rows[0]?.current_attempt_id === attemptId;
}

export async function loadAccount(db: Queryable, box: SecretBox, accountId: number): Promise<{ active: boolean; credentials: AccountCredentials }> {
  const { rows } = await db.query<{
    id: number; org_id: number; network: NetworkId; username: string; network_unique_id: string; service_url: string | null;
    is_active: boolean; access_token_enc: Buffer | null; refresh_token_enc: Buffer | null; credential_enc: Buffer | null;
  }>('SELECT * FROM social_accounts WHERE id = $1', [accountId]);
  const a = rows[0]!;
  return {
    active: a.is_active,
    credentials: {
      id: a.id,
      orgId: a.org_id,
      network: a.network,
      username: a.username,
      networkUniqueId: a.network_unique_id,
      serviceUrl: a.service_url,
      accessToken: openSecret(box, a.id, 'access', a.access_token_enc),
      refreshToken: openSecret(box, a.id, 'refresh', a.refresh_token_enc),
      credential: openSecret(box, a.id, 'credential', a.credential_enc),
    },
  };
}

async function loadContainers(db: Queryable, postId: number): Promise<ContainerInput[]> {
  const { rows } = await db.query<{ content: string; media: { url: string; filename: string; altText: string | null }[] }>(
    `SELECT c.content,
            (SELECT coalesce(json_agg(json_build_object('url', m.url, 'filename', m.filename, 'altText', m.alt_text) ORDER BY m.position), '[]')
               FROM container_media m WHERE m.container_id = c.id) AS media
       FROM containers c WHERE c.post_id = $1 ORDER BY c.position`,
    [postId],
  );
  return rows.map((r) => ({
    content: r.content,
    media: r.media.map((m) => (m.altText === null ? { url: m.url, filename: m.filename } : { url: m.url, filename: m.filename, altText: m.altText })),
  }));
}

/** Renews the attempt's lease every `seconds / 3` until stopped. */
export function keepAttemptAlive(db: Queryable, attemptId: number, seconds: number): () => void {
  const timer = setInterval(() => {
    db.query('UPDATE attempts SET alive_at = now() WHERE id = $1 AND finished_at IS NULL', [attemptId]).catch(() => {});
  }, (seconds * 1000) / 3);
  timer.unref();
  return () => clearInterval(timer);
}
