// Each container of a target is a part: reserved (what was chosen before the network call) and then
// published (its id on the network). Written in their own small transactions, at once, so that a
// crash at any point leaves a record saying exactly how far the thread got.
import type { Db } from '../db/pool.ts';
import type { PartRef } from '../networks/types.ts';

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

export async function reservePart(db: Db, orgId: number, targetId: number, position: number, reservation: Record<string, unknown>): Promise<void> {
  await db.query(
    `INSERT INTO target_parts (target_id, position, org_id, status, reservation) VALUES ($1, $2, $3, 'reserved', $4)
     ON CONFLICT (target_id, position) DO UPDATE SET reservation = EXCLUDED.reservation, updated_at = now()
     WHERE target_parts.status = 'reserved'`,
    [targetId, position, orgId, JSON.stringify(reservation)],
  );
}

export async function confirmPart(db: Db, orgId: number, targetId: number, position: number, part: PartRef): Promise<void> {
  await db.query(
    `INSERT INTO target_parts (target_id, position, org_id, status, platform_id, platform_url, ref) VALUES ($1, $2, $3, 'published', $4, $5, $6)
     ON CONFLICT (target_id, position) DO UPDATE SET status = 'published', platform_id = EXCLUDED.platform_id,
       platform_url = EXCLUDED.platform_url, ref = EXCLUDED.ref, updated_at = now()`,
    [targetId, position, orgId, part.platformId, part.url, part.ref ? JSON.stringify(part.ref) : null],
  );
}
