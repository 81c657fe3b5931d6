// Connected social accounts: listing with the filters of docs/design.md §7, and storing (tokens encrypted).
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { RequestError, validationError } from '../core/errors.ts';
import { decodeId, encodeId } from '../core/ids.ts';
import { isNetworkId, NETWORKS } from '../networks/ids.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import { saveAccountSecrets, type AccountSecrets } from './secrets.ts';
import type { PasswordAccount, PasswordLoginInput } from '../networks/contract.ts';

export interface SocialAccountJson {
  id: string;
  nickname: string;
  network: string;
  username: string;
  tenantId: string | null;
  accountType: string;
  /** 1 or 0, as the spec's `account.token_expired` flow describes it. */
  isActive: 0 | 1;
  /** Why the account was disconnected (the error that disconnected it), null while it is active. */
  disconnectedReason: string | null;
  disconnectedAt: string | null;
  profile_picture_url: string | null;
  network_unique_id: string;
  sandbox: boolean;
  createdAt: string;
}

export interface AccountFilters {
  id?: string;
  tenantId?: string;
  network?: string;
  networkUniqueId?: string;
  username?: string;
  limit?: number;
  offset?: number;
}

interface AccountRow {
  id: number;
  nickname: string;
  network: string;
  username: string;
  tenant_id: string | null;
  account_type: string;
  is_active: boolean;
  disconnected_reason: string | null;
  disconnected_at: Date | null;
  profile_picture_url: string | null;
  network_unique_id: string;
  sandbox: boolean;
  created_at: Date;
}

export async function listSocialAccounts(db: Queryable, orgId: number, filters: AccountFilters) {
  const limit = filters.limit ?? 50;
  const offset = filters.offset ?? 0;
  const params: unknown[] = [orgId];
  const clauses = ['org_id = $1'];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.id !== undefined) {
    const id = decodeId(filters.id);
    if (id === undefined) throw validationError([{ field: 'id', message: 'must be an account id from GET /v1/social-accounts' }]);
    clauses.push(`id = ${param(id)}`);
  }
  if (filters.network !== undefined) {
    if (!isNetworkId(filters.network)) throw validationError([{ field: 'network', message: `must be a network identifier: ${NETWORKS.join(', ')}` }]);
    clauses.push(`network = ${param(filters.network)}`);
  }
  if (filters.tenantId !== undefined) clauses.push(`tenant_id = ${param(filters.tenantId)}`);
  if (filters.networkUniqueId !== undefined) clauses.push(`network_unique_id = ${param(filters.networkUniqueId)}`);
  if (filters.username !== undefined) clauses.push(`username ILIKE ${param(`%${escapeLike(filters.username)}%`)}`);
  const where = clauses.join(' AND ');
  // The page is bound like every other value: no number reaches the statement's text.
  const pageParams = [...params, limit, offset];
  const [page, total] = await Promise.all([
    db.query<AccountRow>(`SELECT * FROM social_accounts WHERE ${where} ORDER BY id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, pageParams),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM social_accounts WHERE ${where}`, params),
  ]);
  return { data: page.rows.map(toAccountJson), count: total.rows[0]!.n, limit, offset };
}

function toAccountJson(row: AccountRow): SocialAccountJson {
  return {
    id: encodeId(row.id),
    nickname: row.nickname,
    network: row.network,
    username: row.username,
    tenantId: row.tenant_id,
    accountType: row.account_type,
    isActive: row.is_active ? 1 : 0,
    disconnectedReason: row.is_active ? null : row.disconnected_reason,
    disconnectedAt: row.is_active ? null : row.disconnected_at?.toISOString() ?? null,
    profile_picture_url: row.profile_picture_url,
    network_unique_id: row.network_unique_id,
    sandbox: row.sandbox,
    createdAt: row.created_at.toISOString(),
  };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface NewSocialAccount extends AccountSecrets {
  orgId: number;
  network: NetworkId;
  username: string;
  networkUniqueId: string;
  nickname?: string;
  tenantId?: string | null;
  accountType?: string;
  profilePictureUrl?: string | null;
  serviceUrl?: string | null;
  sandbox?: boolean;
  /** Connected through the operator's managed app (its token is refreshed with that app). */
  managedApp?: boolean;
  /** Connected with the messaging scope asked for: receives and sends direct messages. */
  messaging?: boolean;
}

/**
 * Stores an account, or updates it in place (same id, active again) when the same network account is
 * connected again. Secrets are sealed with the row id, so the row is written first.
 */
export async function upsertSocialAccount(db: Queryable, box: SecretBox, account: NewSocialAccount): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO social_accounts (org_id, network, username, nickname, tenant_id, network_unique_id, account_type,
                                  profile_picture_url, service_url, sandbox, managed_app, messaging, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true)
     ON CONFLICT (org_id, network, network_unique_id) DO UPDATE SET
       username = EXCLUDED.username, nickname = EXCLUDED.nickname, tenant_id = EXCLUDED.tenant_id,
       account_type = EXCLUDED.account_type, profile_picture_url = EXCLUDED.profile_picture_url,
       service_url = EXCLUDED.service_url, managed_app = EXCLUDED.managed_app, messaging = EXCLUDED.messaging, is_active = true, token_refresh_retry_at = NULL,
       disconnected_reason = NULL, disconnected_at = NULL
     RETURNING id`,
    [account.orgId, account.network, account.username, account.nickname ?? account.username, account.tenantId ?? null,
      account.networkUniqueId, account.accountType ?? 'personal', account.profilePictureUrl ?? null, account.serviceUrl ?? null,
      account.sandbox ?? false, account.managedApp ?? false, account.messaging ?? false],
  );
  const id = rows[0]!.id;
  await saveAccountSecrets(db, box, id, account);
  return id;
}

export async function getSocialAccount(db: Queryable, orgId: number, id: number): Promise<SocialAccountJson | undefined> {
  const { rows } = await db.query<AccountRow>('SELECT * FROM social_accounts WHERE id = $1 AND org_id = $2', [id, orgId]);
  return rows[0] && toAccountJson(rows[0]);
}

/**
 * DELETE /v1/social-accounts/:id. An account that posts were ever sent to is refused with 409: the
 * targets reference it (ON DELETE CASCADE), so deleting it would erase those posts' history for this
 * account. Such an account stays listed (inactive once its token is gone). Returns false when the org
 * has no such account.
 */
export async function deleteSocialAccount(db: Db, orgId: number, id: number): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    // The row lock waits for a post being created with this account (its target insert holds a key
    // share lock), so the count below sees that target and the cascade can never take it.
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM social_accounts WHERE id = $1 AND org_id = $2 FOR UPDATE', [id, orgId]);
    if (!rows[0]) return false;
    const used = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM targets WHERE account_id = $1', [id]);
    const posts = used.rows[0]!.n;
    if (posts > 0) {
      throw new RequestError(409, `This account has ${posts} post destination(s) in its history; deleting it would erase them, so it is kept`, { code: 'account_has_posts' });
    }
    await tx.query('DELETE FROM social_accounts WHERE id = $1', [id]);
    return true;
  });
}

/**
 * POST /v1/social-accounts/<network> (a network that connects with an app password or a bot token): log in with it
 * (the network's own login, given by the registry), then store the account.
 */
export async function connectWithPassword(
  db: Queryable,
  box: SecretBox,
  network: NetworkId,
  login: (input: PasswordLoginInput) => Promise<PasswordAccount>,
  input: { orgId: number; credentials: PasswordLoginInput; tenantId?: string },
): Promise<number> {
  const account = await login(input.credentials);
  return upsertSocialAccount(db, box, { orgId: input.orgId, network, tenantId: input.tenantId ?? null, ...account });
}
