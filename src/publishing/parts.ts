// Each container of a target is a part: reserved (what was chosen before the network call) and then
// published (its id on the network). The reservation is committed before the call and the
// confirmation right after it (with the next container's reservation, or with the outcome), so a
// crash at any point leaves a record saying exactly how far the thread got.
import { prepared, withTransaction, type Db, type Queryable } from '../db/pool.ts';
import type { PartRef } from '../core/post.ts';

export interface StoredPart {
  position: number;
  status: 'reserved' | 'published';
  reservation: Record<string, unknown>;
  ref: PartRef | undefined;
}

export async function loadParts(db: Db, targetId: number): Promise<Map<number, StoredPart>> {
  const { rows } = await db.query<{ position: number; status: 'reserved' | 'published'; reservation: Record<string, unknown>; platform_id: string | null; platform_url: string | null; ref: Record<string, unknown> | null }>(
    'SELECT position, status, reservation, platform_id, platform_url, ref FROM target_parts WHERE target_id = $1',
    [targetId],
  );
  return new Map(
    rows.map((r) => [
      r.position,
      {
        position: r.position,
        status: r.status,
        reservation: r.reservation,
        ref: r.platform_id ? { platformId: r.platform_id, url: r.platform_url ?? '', ref: r.ref ?? undefined } : undefined,
      },
    ]),
  );
}

/** A container the network accepted, to record as published. */
export interface ConfirmedPart {
  position: number;
  ref: PartRef;
}

/**
 * One step of one attempt before its next network call: confirm the container just published (if
 * any), reserve the next one (if any), and check that the attempt is still the target's current one.
 */
export interface PartStep {
  orgId: number;
  targetId: number;
  attemptId: number;
  confirm?: ConfirmedPart;
  reserve?: { position: number; reservation: Record<string, unknown> };
}

/**
 * Writes many attempts' steps in one statement; returns, per step, whether its attempt is still
 * current (false: a newer attempt took the target over, and this one must not call the network).
 * A confirmation is written either way: what the network published must be on record for whichever
 * attempt carries on. A reservation is written only for a current attempt, and never over a part
 * already published.
 */
export async function writePartSteps(db: Queryable, steps: PartStep[]): Promise<boolean[]> {
  const column = <T>(pick: (s: PartStep) => T) => steps.map(pick);
  const { rows } = await db.query<{ target_id: number; attempt_id: number }>({
    ...prepared(`WITH s AS (
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[], $5::text[], $6::text[], $7::jsonb[], $8::int[], $9::jsonb[])
         AS s(target_id, attempt_id, org_id, confirm_position, platform_id, platform_url, ref, reserve_position, reservation)
     ), live AS (
       SELECT s.* FROM s JOIN targets t ON t.id = s.target_id AND t.current_attempt_id = s.attempt_id
     ), confirmed AS (
       INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url, ref)
       SELECT target_id, confirm_position, org_id, 'published', platform_id, platform_url, ref FROM s WHERE confirm_position IS NOT NULL
       ON CONFLICT (target_id, position) DO UPDATE SET status = 'published', platform_id = EXCLUDED.platform_id,
         platform_url = EXCLUDED.platform_url, ref = EXCLUDED.ref, updated_at = now()
     ), reserved AS (
       INSERT INTO target_parts (target_id, position, org_id, status, reservation)
       SELECT target_id, reserve_position, org_id, 'reserved', reservation FROM live WHERE reserve_position IS NOT NULL
       ON CONFLICT (target_id, position) DO UPDATE SET reservation = EXCLUDED.reservation, updated_at = now()
       WHERE target_parts.status = 'reserved'
     )
     SELECT target_id, attempt_id FROM live`),
    values: [
      column((s) => s.targetId),
      column((s) => s.attemptId),
      column((s) => s.orgId),
      column((s) => s.confirm?.position ?? null),
      column((s) => s.confirm?.ref.platformId ?? null),
      column((s) => s.confirm?.ref.url ?? null),
      column((s) => (s.confirm?.ref.ref ? JSON.stringify(s.confirm.ref.ref) : null)),
      column((s) => s.reserve?.position ?? null),
      column((s) => (s.reserve ? JSON.stringify(s.reserve.reservation) : null)),
    ],
  });
  const live = new Set(rows.map((r) => `${r.target_id}:${r.attempt_id}`));
  return steps.map((s) => live.has(`${s.targetId}:${s.attemptId}`));
}

/**
 * Records a post found on the network (after a crash, or a duplicate refusal) as container
 * `position` of `targetId`, now, unless another destination of the account owns it already
 * (migration 024: the post's turn is taken first, so two claims racing for it are settled one after
 * the other). True when it is this target's.
 */
export async function claimNetworkPost(db: Db, part: { orgId: number; accountId: number; targetId: number } & ConfirmedPart): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.query<{ taken: boolean }>('SELECT network_post_owned_elsewhere($1, $2, $3) AS taken', [part.accountId, part.ref.platformId, part.targetId]);
    if (rows[0]!.taken) return false;
    await tx.query(
      `INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url, ref)
       VALUES ($1, $2, $3, 'published', $4, $5, $6)
       ON CONFLICT (target_id, position) DO UPDATE SET status = 'published', platform_id = EXCLUDED.platform_id,
         platform_url = EXCLUDED.platform_url, ref = EXCLUDED.ref, updated_at = now()`,
      [part.targetId, part.position, part.orgId, part.ref.platformId, part.ref.url, part.ref.ref ? JSON.stringify(part.ref.ref) : null],
    );
    return true;
  });
}

/** Which of `platformIds` another destination than `targetId` owns on account `accountId`. */
export async function ownedElsewhere(db: Queryable, accountId: number, targetId: number, platformIds: string[]): Promise<Set<string>> {
  if (platformIds.length === 0) return new Set();
  const { rows } = await db.query<{ platform_id: string }>(
    'SELECT platform_id FROM target_parts WHERE platform_id = ANY($1::text[]) AND account_id = $2 AND target_id <> $3',
    [platformIds, accountId, targetId],
  );
  return new Set(rows.map((r) => r.platform_id));
}
