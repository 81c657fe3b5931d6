// What happened to a post after it was created: each destination's publishing attempts (the
// engine's `attempts` rows), for GET /v1/posts/:id/attempts.
import type { Queryable } from '../db/pool.ts';
import { RequestError } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';

export interface PublishAttemptJson {
  socialAccountId: string;
  network: string;
  username: string;
  /** 1 for the destination's first attempt. */
  attempt: number;
  startedAt: string;
  finishedAt: string | null;
  /** published, failed, retry (tried again later), waiting (a network's processing or an upload step), unknown, superseded (its worker died; another took over), skipped; null while it runs. */
  outcome: string | null;
  error: string | null;
}

/** Every publishing attempt of the org's post, destination by destination, oldest first; 404 when it is not the org's. */
export async function publishAttempts(db: Queryable, orgId: number, encodedPostId: string): Promise<PublishAttemptJson[]> {
  const postId = decodeId(encodedPostId);
  const owned = postId === undefined ? { rows: [] } : await db.query('SELECT 1 FROM posts WHERE id = $1 AND org_id = $2', [postId, orgId]);
  if (!owned.rows.length) throw new RequestError(404, 'Post not found', { code: 'not_found' });
  const { rows } = await db.query<{ account_id: number; network: string; username: string; n: number; started_at: Date; finished_at: Date | null; outcome: string | null; error: string | null }>(
    `SELECT t.account_id, s.network, s.username, row_number() OVER (PARTITION BY t.id ORDER BY a.id)::int AS n,
            a.started_at, a.finished_at, a.outcome, a.error
       FROM targets t JOIN social_accounts s ON s.id = t.account_id JOIN attempts a ON a.target_id = t.id
      WHERE t.post_id = $1
      ORDER BY t.id, a.id`,
    [postId],
  );
  return rows.map((r) => ({
    socialAccountId: encodeId(r.account_id),
    network: r.network,
    username: r.username,
    attempt: r.n,
    startedAt: r.started_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
    outcome: r.outcome,
    error: r.error,
  }));
}
