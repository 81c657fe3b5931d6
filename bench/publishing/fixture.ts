// What the publishing bench publishes with and to: one organization with N connected X accounts,
// each backed by its own user (and token) on the X emulator, so that per-user rate limits and the
// per-user duplicate check never make two accounts interfere; and bulk-written queued posts (due
// targets), for the drain and scheduling figures, written straight into the tables.
import type { Db } from '../../src/db/pool.ts';
import { upsertSocialAccount } from '../../src/accounts/social-accounts.ts';
import { encodeId } from '../../src/core/ids.ts';
import { createOrg } from '../../src/orgs/orgs.ts';
import type { SecretBox } from '../../src/security/crypto.ts';
import type { AddUserInput, XUser } from '../../emulators/x/server.ts';

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
export async function createXFixture(db: Db, box: SecretBox, x: { addUser(input: AddUserInput): Pick<XUser, 'id'> }, count: number): Promise<PublishFixture> {
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

export interface SeededPosts {
  postIds: number[];
}

/** One statement writes at most this many posts (with their containers and targets). */
const POST_CHUNK = 50_000;

/**
 * Writes `count` queued posts, each with one container and one target on one of the accounts (round
 * robin on the post id), due at the post's scheduled time: what POST /v1/posts stores for a scheduled
 * post, without the HTTP round trips. `when` is either one instant for every post, or a range of days
 * ahead over which scheduled times are spread at random (a pending backlog). Contents are
 * `<tag> <post id>`, unique per account as X requires. `keepIds: false` skips collecting the ids
 * (a million-post backlog needs them only in SQL).
 */
export async function seedDuePosts(
  db: Db,
  fixture: PublishFixture,
  options: { count: number; tag: string; when: { at: Date } | { daysAhead: [number, number] }; keepIds?: boolean },
): Promise<SeededPosts> {
  const accountIds = fixture.accounts.map((a) => a.rawId);
  const at = 'at' in options.when ? options.when.at : null;
  const [fromDays, toDays] = 'daysAhead' in options.when ? options.when.daysAhead : [0, 0];
  const postIds: number[] = [];
  for (let done = 0; done < options.count; done += POST_CHUNK) {
    const n = Math.min(POST_CHUNK, options.count - done);
    const { rows } = await db.query<{ id: number }>(
      `WITH p AS (
         INSERT INTO posts (org_id, scheduled_at, queued)
         SELECT $1, coalesce($3::timestamptz, now() + $4::float8 * interval '1 day' + random() * ($5::float8 - $4::float8) * interval '1 day'), true
           FROM generate_series(1, $2::int)
         RETURNING id, scheduled_at
       ), c AS (
         INSERT INTO containers (org_id, post_id, position, content)
         SELECT $1, p.id, 0, $6::text || ' ' || p.id FROM p
       ), t AS (
         INSERT INTO targets (org_id, post_id, account_id, due_at)
         SELECT $1, p.id, ($7::bigint[])[(1 + p.id % cardinality($7::bigint[]))::int], p.scheduled_at FROM p
       )
       SELECT id FROM p WHERE $8 ORDER BY id`,
      [fixture.orgId, n, at, fromDays, toDays, options.tag, accountIds, options.keepIds !== false],
    );
    for (const r of rows) postIds.push(r.id);
  }
  return { postIds };
}
