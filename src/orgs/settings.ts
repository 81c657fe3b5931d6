// The organization's settings (GET/PATCH /v1/settings) and its tenants' (/v1/tenant-settings). One so
// far: `requireApproval`, whether a post created (not a draft) waits for an approver before it is
// queued (posts/manage.ts). A tenant's applies to the posts targeting any account that carries the
// tenant: a post waits when its organization or one of its accounts' tenants requires approval. A
// change applies to posts created or made non-drafts after it; posts already waiting keep waiting.
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

/** Whether a post (not a draft) waits for approval: its organization's setting, or a tenant's of its accounts. */
export function needsApproval(orgRequires: boolean, accounts: readonly { tenantRequiresApproval?: boolean }[]): boolean {
  return orgRequires || accounts.some((account) => account.tenantRequiresApproval === true);
}

/** The same judgement for a stored post, in SQL (a draft made a post: posts/manage.ts). */
export async function postNeedsApproval(db: Queryable, orgId: number, postId: number): Promise<boolean> {
  const { rows } = await db.query<{ needed: boolean }>(
    `SELECT o.require_approval OR EXISTS (
              SELECT 1 FROM targets t JOIN social_accounts a ON a.id = t.account_id
                JOIN tenant_settings s ON s.org_id = a.org_id AND s.tenant_id = a.tenant_id AND s.require_approval
               WHERE t.post_id = $2) AS needed
       FROM orgs o WHERE o.id = $1`,
    [orgId, postId],
  );
  return rows[0]?.needed === true;
}

export interface TenantSettings {
  tenantId: string;
  requireApproval: boolean;
  /** When last changed; null for a tenant never set (its settings are the defaults). */
  updatedAt: string | null;
}

const TENANT_COLUMNS = 'tenant_id AS "tenantId", require_approval AS "requireApproval", updated_at AS "updatedAt"';

/** A tenant's settings: the stored row, or the defaults for a tenant never set. */
export async function readTenantSettings(db: Queryable, orgId: number, tenantId: string): Promise<TenantSettings> {
  const { rows } = await db.query<TenantSettings>(`SELECT ${TENANT_COLUMNS} FROM tenant_settings WHERE org_id = $1 AND tenant_id = $2`, [orgId, tenantId]);
  return rows[0] ? withIsoTime(rows[0]) : { tenantId, requireApproval: false, updatedAt: null };
}

/** Every tenant whose settings were set, by name. */
export async function listTenantSettings(db: Queryable, orgId: number): Promise<TenantSettings[]> {
  const { rows } = await db.query<TenantSettings>(`SELECT ${TENANT_COLUMNS} FROM tenant_settings WHERE org_id = $1 ORDER BY tenant_id`, [orgId]);
  return rows.map(withIsoTime);
}

/** Sets the fields given for the tenant (made on first change); returns its settings now in force. */
export async function updateTenantSettings(db: Queryable, orgId: number, tenantId: string, change: { requireApproval: boolean }): Promise<TenantSettings> {
  const { rows } = await db.query<TenantSettings>(
    `INSERT INTO tenant_settings (org_id, tenant_id, require_approval) VALUES ($1, $2, $3)
     ON CONFLICT (org_id, tenant_id) DO UPDATE SET require_approval = EXCLUDED.require_approval, updated_at = now()
     RETURNING ${TENANT_COLUMNS}`,
    [orgId, tenantId, change.requireApproval],
  );
  return withIsoTime(rows[0]!);
}

function withIsoTime(row: TenantSettings): TenantSettings {
  const at = row.updatedAt as unknown as Date | null;
  return { ...row, updatedAt: at === null ? null : at.toISOString() };
}
