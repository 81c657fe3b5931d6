// The organization's settings (GET/PATCH /v1/settings). One so far: `requireApproval`, whether a post
// created (not a draft) waits for an approver before it is queued (posts/approval.ts). A change
// applies to posts created or made non-drafts after it; posts already waiting keep waiting.
import type { Queryable } from '../db/pool.ts';

export interface OrgSettings {
  requireApproval: boolean;
}

export async function readSettings(db: Queryable, orgId: number): Promise<OrgSettings> {
  const { rows } = await db.query<OrgSettings>('SELECT require_approval AS "requireApproval" FROM orgs WHERE id = $1', [orgId]);
  return rows[0]!;
}

/** Applies the fields given (a field left out keeps its value); returns the settings now in force. */
export async function updateSettings(db: Queryable, orgId: number, change: Partial<OrgSettings>): Promise<OrgSettings> {
  const { rows } = await db.query<OrgSettings>(
    'UPDATE orgs SET require_approval = coalesce($2, require_approval) WHERE id = $1 RETURNING require_approval AS "requireApproval"',
    [orgId, change.requireApproval ?? null],
  );
  return rows[0]!;
}
