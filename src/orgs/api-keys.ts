// API keys: the tokens (high-entropy random strings with a recognisable prefix), issuing, listing,
// revoking, resolving a presented key to its owner, and its last use. The key itself is shown once;
// only its SHA-256 is stored, so a database leak does not leak usable keys; lookup is by hash.
// What a key may spend (fixed quota, per-key window override) is counted in limits/.
import { createHash, randomBytes } from 'node:crypto';
import { BatchQueue } from '../db/batch-queue.ts';
import { prepared, type Db, type Queryable } from '../db/pool.ts';
import { encodeId, parseEncodedOrNumericId } from '../core/ids.ts';
import type { Role } from './roles.ts';
import type { SubscriptionStatus } from './subscription.ts';

// ---- tokens --------------------------------------------------------------------------------------

const PREFIX = 'crier_';

export interface NewApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  /** What may be shown later to recognise the key. */
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const key = PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, PREFIX.length + 6), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

// ---- records -------------------------------------------------------------------------------------

/** A key without a role given is an admin's (roles.ts): the CLI's, the first start's, every key made before roles. */
export async function insertApiKey(db: Queryable, orgId: number, userId: number, name: string, fixedQuota?: number, role: Role = 'admin'): Promise<{ id: number; key: string; prefix: string }> {
  const { key, prefix, hash } = generateApiKey();
  const row = await db.query<{ id: number }>(
    'INSERT INTO api_keys (org_id, user_id, name, prefix, key_hash, fixed_quota, role) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
    [orgId, userId, name, prefix, hash, fixedQuota ?? null, role],
  );
  return { id: row.rows[0]!.id, key, prefix };
}

/** Creates a key for the org's first user (the CLI's `key create`). */
export async function createApiKey(db: Db, orgId: number, name: string, fixedQuota?: number, role: Role = 'admin'): Promise<{ id: number; key: string; prefix: string }> {
  const user = await db.query<{ id: number }>('SELECT id FROM users WHERE org_id = $1 ORDER BY id LIMIT 1', [orgId]);
  if (!user.rowCount) throw new Error(`organization ${orgId} does not exist`);
  return insertApiKey(db, orgId, user.rows[0]!.id, name, fixedQuota, role);
}

/** Revokes a key given by its numeric id or by the key itself; returns whether one was revoked. */
export async function revokeApiKey(db: Db, idOrKey: string): Promise<boolean> {
  const byId = /^\d+$/.test(idOrKey);
  const result = await db.query(
    `UPDATE api_keys SET revoked_at = now() WHERE revoked_at IS NULL AND ${byId ? 'id = $1' : 'key_hash = $1'}`,
    [byId ? Number(idOrKey) : hashApiKey(idOrKey)],
  );
  return result.rowCount === 1;
}

/** What the keys page shows as the prefix of an OAuth grant's key record. */
export const GRANT_KEY_PREFIX = 'oauth-grant';

/**
 * The key record of an OAuth grant (src/oauth/): listed, limited and revoked like any key, while no
 * key exists to present: its hash is of random bytes nobody keeps, and the grant's access tokens
 * resolve to it instead. Its prefix says what it is on the keys page.
 */
export async function insertGrantKey(db: Queryable, orgId: number, userId: number, name: string): Promise<number> {
  const row = await db.query<{ id: number }>(
    'INSERT INTO api_keys (org_id, user_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [orgId, userId, name, GRANT_KEY_PREFIX, hashApiKey(randomBytes(32).toString('base64url'))],
  );
  return row.rows[0]!.id;
}

/** Revokes a key by its id, keeping an earlier revocation's time (an OAuth grant ended by token reuse). */
export async function revokeApiKeyById(db: Queryable, keyId: number): Promise<void> {
  await db.query('UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1', [keyId]);
}

/** Revokes the org's active keys of that name (the sandbox replaces its run key this way); returns how many. */
export async function revokeApiKeysNamed(db: Queryable, orgId: number, name: string): Promise<number> {
  const result = await db.query('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND name = $2 AND revoked_at IS NULL', [orgId, name]);
  return result.rowCount ?? 0;
}

export interface KeyOwner {
  keyId: number;
  orgId: number;
  userId: number;
  subscriptionStatus: SubscriptionStatus;
  billingUrl: string | null;
  /** Not null: the key has a fixed request quota instead of a per-window limit. */
  fixedQuota: number | null;
  /** Requests counted against the fixed quota so far (when this request was authenticated). */
  quotaUsed: number;
  /** Not null: an operator's override of the organization's per-window limit. */
  rateLimit: number | null;
  /** What the key may do (roles.ts). */
  role: Role;
  /** The organization holds its posts for approval (settings.ts): read with the key, no query more per create. */
  requireApproval: boolean;
}

/** Who a presented key belongs to, or undefined for an unknown or revoked key. */
export async function findKeyOwner(db: Queryable, key: string): Promise<KeyOwner | undefined> {
  return (await findKeyOwners(db, [hashApiKey(key)]))[0];
}

/** The columns of a KeyOwner, from `api_keys k` joined with `orgs o` (an OAuth grant's owner is read with them too). */
export const KEY_OWNER_COLUMNS = `k.id AS "keyId", k.org_id AS "orgId", k.user_id AS "userId",
            o.subscription_status AS "subscriptionStatus", o.billing_url AS "billingUrl",
            k.fixed_quota AS "fixedQuota", k.quota_used AS "quotaUsed", k.rate_limit AS "rateLimit", k.role,
            o.require_approval AS "requireApproval"`;

/** The owners of keys given by their hashes, in the same order (undefined: unknown or revoked). */
async function findKeyOwners(db: Queryable, hashes: Buffer[]): Promise<(KeyOwner | undefined)[]> {
  const result = await db.query<KeyOwner & { ord: number }>({
    ...prepared(`SELECT r.ord, ${KEY_OWNER_COLUMNS}
       FROM unnest($1::bytea[]) WITH ORDINALITY AS r(key_hash, ord)
       JOIN api_keys k ON k.key_hash = r.key_hash AND k.revoked_at IS NULL
       JOIN orgs o ON o.id = k.org_id`),
    values: [hashes],
  });
  const owners: (KeyOwner | undefined)[] = hashes.map(() => undefined);
  for (const { ord, ...owner } of result.rows) owners[ord - 1] = owner;
  return owners;
}

/**
 * Looks keys up, by their hashes (hashApiKey), as requests come: the lookups of requests that arrive while others are at the
 * database share one statement (db/batch-queue.ts). Nothing is cached, so a revoked key, a changed
 * limit or subscription applies to the next request that reaches the database after the change.
 */
export function createKeyOwnerLookup(db: Queryable): BatchQueue<Buffer, KeyOwner | undefined> {
  return new BatchQueue(async (hashes: Buffer[]) => {
    const owners = await findKeyOwners(db, hashes);
    return owners.map((value) => ({ ok: true as const, value }));
  }, { slots: 2, maxBatch: 200 });
}

// ---- last use -----------------------------------------------------------------------------------

/** Records that the key was used; callers throttle it (a write per request would be wasteful). */
export async function touchApiKey(db: Queryable, keyId: number): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [keyId]);
}

// ---- the /v1/api-keys resource -----------------------------------------------------------------

/** A key as its organization may see it: never the key itself nor its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  /** The user the key belongs to. */
  userId: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  fixedQuota: number | null;
  quotaUsed: number;
  /** The operator's per-window limit for this key; null: the organization's computed limit. */
  rateLimit: number | null;
  /** What the key may do: admin, editor or approver. */
  role: Role;
}

interface ApiKeyRow {
  id: number;
  name: string;
  prefix: string;
  user_id: number;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  fixed_quota: number | null;
  quota_used: number;
  rate_limit: number | null;
  role: Role;
}

const VIEW_COLUMNS = 'id, name, prefix, user_id, created_at, last_used_at, revoked_at, fixed_quota, quota_used, rate_limit, role';

function toView(row: ApiKeyRow): ApiKeyView {
  return {
    id: encodeId(row.id),
    name: row.name,
    prefix: row.prefix,
    userId: encodeId(row.user_id),
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    fixedQuota: row.fixed_quota,
    quotaUsed: row.quota_used,
    rateLimit: row.rate_limit,
    role: row.role,
  };
}

export interface ApiKeyPage {
  data: ApiKeyView[];
  /** Keys of the organization, revoked ones included, across all pages. */
  count: number;
  limit: number;
  offset: number;
}

/** The organization's keys, newest first, revoked ones included (they show when they stopped). */
export async function listApiKeys(db: Queryable, orgId: number, page: { limit: number; offset: number }): Promise<ApiKeyPage> {
  const [rows, total] = await Promise.all([
    db.query<ApiKeyRow>(`SELECT ${VIEW_COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [orgId, page.limit, page.offset]),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE org_id = $1', [orgId]),
  ]);
  return { data: rows.rows.map(toView), count: total.rows[0]!.n, ...page };
}

/** Issues a key to `userId` of `orgId`; the returned `key` is the only time it is ever visible. */
export async function issueApiKey(db: Queryable, orgId: number, userId: number, input: { name: string; fixedQuota?: number; role?: Role }): Promise<ApiKeyView & { key: string }> {
  const { id, key } = await insertApiKey(db, orgId, userId, input.name, input.fixedQuota, input.role);
  const row = await db.query<ApiKeyRow>(`SELECT ${VIEW_COLUMNS} FROM api_keys WHERE id = $1`, [id]);
  return { ...toView(row.rows[0]!), key };
}

/**
 * Revokes one of the organization's keys, given by its public id. Revoking twice keeps the first
 * revocation time. Undefined: no such key in this organization (another org's key looks the same).
 */
export async function revokeOrgApiKey(db: Queryable, orgId: number, publicId: string): Promise<ApiKeyView | undefined> {
  const id = parseEncodedOrNumericId(publicId);
  if (id === undefined) return undefined;
  const result = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND org_id = $2 RETURNING ${VIEW_COLUMNS}`,
    [id, orgId],
  );
  return result.rows[0] && toView(result.rows[0]);
}
