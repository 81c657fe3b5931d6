// What the publishing bench publishes with and to: one organization with N connected X accounts,
// each backed by its own user (and token) on the X emulator, so that per-user rate limits and the
// per-user duplicate check never make two accounts interfere; and bulk-written queued posts, for the
// scheduling figure, written straight into the tables and the pg-boss queue.
import type { Db } from '../../src/db/pool.ts';
import { upsertSocialAccount } from '../../src/accounts/social-accounts.ts';
import { encodeId } from '../../src/ids.ts';
import { createOrg } from '../../src/orgs/orgs.ts';
import type { Boss } from '../../src/queue/boss.ts';
import { PUBLISH_QUEUE, type PublishJob } from '../../src/queue/queues.ts';
import type { SecretBox } from '../../src/security/crypto.ts';
import type { XEmulator } from '../../emulators/x/server.ts';

export interface XBenchAccount {
  rawId: number;
  /** The public id the API takes in `accounts`. */
  id: string;
  /** The emulator user's id (the account's network_unique_id) and its access token. */
  userId: string;
  token: string;
}

export interface PublishFixture {
  orgId: number;
  apiKey: string;
  accounts: XBenchAccount[];
}

/** The org (through Crier's own code, so its API key works) and `count` X accounts. */
export async function createXFixture(db: Db, box: SecretBox, x: XEmulator, count: number): Promise<PublishFixture> {
  const org = await createOrg(db, 'bench-publishing');
  const accounts: XBenchAccount[] = [];
  for (let i = 0; i < count; i++) {
    const username = `bench_x_${i}`;
    const token = `bench-x-token-${i}-${org.orgId}`;
    const user = x.addUser({ username, accessToken: token, expiresInSecs: 24 * 3600 });
    const rawId = await upsertSocialAccount(db, box, {
      orgId: org.orgId,
      network: 'x',
      username,
      networkUniqueId: user.id,
      accessToken: token,
    });
    accounts.push({ rawId, id: encodeId(rawId), userId: user.id, token });
  }
  return { orgId: org.orgId, apiKey: org.apiKey, accounts };
}

export interface SeededTargets {
  /** Target ids in ascending order. */
  targetIds: number[];
  postIds: number[];
}

/** One SQL statement writes at most this many posts; pg-boss jobs go in batches of JOB_BATCH. */
const POST_CHUNK = 10_000;
const JOB_BATCH = 1_000;

/**
 * Writes `count` queued posts, each with one container and one target on one of the accounts
 * (round robin on the post id), and queues their publishing jobs through pg-boss's own insert, each
 * job starting at its post's scheduled_at: what POST /v1/posts stores for a scheduled post, without
 * the HTTP round trips. `when` is either one instant for every post, or a range of days ahead over
 * which scheduled times are spread at random. Contents are `<tag> <post id>`, unique per account as X
 * requires.
 *
 * `createdOverPastDays` moves the jobs' created_on back by a random span up to that many days, as for
 * posts scheduled ahead over the past days. It matters to the queue: pg-boss fetches in created_on
 * order (index job_i11: name, priority, created_on, start_after), so a fetch walks past every
 * not-yet-due job created before the due ones. Left as inserted, each batch of JOB_BATCH jobs shares
 * one created_on, and PostgreSQL 18's skip scan jumps over a whole batch at once: the fetch looks
 * far cheaper than over a backlog that accumulated one post at a time.
 */
export async function seedQueuedPosts(
  db: Db,
  boss: Boss,
  fixture: PublishFixture,
  options: { count: number; tag: string; when: { at: Date } | { daysAhead: [number, number] }; createdOverPastDays?: number },
): Promise<SeededTargets> {
  const accountIds = fixture.accounts.map((a) => a.rawId);
  const at = 'at' in options.when ? options.when.at : null;
  const [fromDays, toDays] = 'daysAhead' in options.when ? options.when.daysAhead : [0, 0];
  const targetIds: number[] = [];
  const postIds: number[] = [];
  for (let done = 0; done < options.count; done += POST_CHUNK) {
    const n = Math.min(POST_CHUNK, options.count - done);
    const { rows } = await db.query<{ target_id: number; post_id: number; scheduled_at: Date }>(
      `WITH p AS (
         INSERT INTO posts (org_id, scheduled_at, queued)
         SELECT $1, coalesce($3::timestamptz, now() + $4::float8 * interval '1 day' + random() * ($5::float8 - $4::float8) * interval '1 day'), true
           FROM generate_series(1, $2::int)
         RETURNING id, scheduled_at
       ), c AS (
         INSERT INTO containers (org_id, post_id, position, content)
         SELECT $1, p.id, 0, $6::text || ' ' || p.id FROM p
       ), t AS (
         INSERT INTO targets (org_id, post_id, account_id)
         SELECT $1, p.id, ($7::bigint[])[(1 + p.id % cardinality($7::bigint[]))::int] FROM p
         RETURNING id, post_id
       )
       SELECT t.id AS target_id, t.post_id, p.scheduled_at FROM t JOIN p ON p.id = t.post_id ORDER BY t.id`,
      [fixture.orgId, n, at, fromDays, toDays, options.tag, accountIds],
    );
    for (let i = 0; i < rows.length; i += JOB_BATCH) {
      const jobs = rows.slice(i, i + JOB_BATCH).map((r) => ({
        data: { targetId: r.target_id, postId: r.post_id, generation: 1 } satisfies PublishJob,
        startAfter: r.scheduled_at,
      }));
      await boss.insert(PUBLISH_QUEUE, jobs);
    }
    for (const r of rows) {
      targetIds.push(r.target_id);
      postIds.push(r.post_id);
    }
  }
  if (options.createdOverPastDays) {
    await db.query(
      `UPDATE pgboss.job SET created_on = created_on - random() * $3::float8 * interval '1 day'
        WHERE name = $1 AND (data->>'postId')::bigint = ANY($2::bigint[])`,
      [PUBLISH_QUEUE, postIds, options.createdOverPastDays],
    );
  }
  return { targetIds, postIds };
}
