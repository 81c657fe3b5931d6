// Organizations, their users and API keys.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { generateApiKey, hashApiKey } from '../security/api-keys.ts';

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface CreatedOrg {
  orgId: number;
  userId: number;
  apiKey: string;
}

/** Creates an org with an admin user and a first API key; the key is returned once. */
export async function createOrg(db: Db, name: string, status: SubscriptionStatus = 'active'): Promise<CreatedOrg> {
  return withTransaction(db, (tx) => insertOrg(tx, name, status));
}

/** On an empty database: the default organization and its admin key. Returns undefined otherwise. */
export async function bootstrapDefaultOrg(db: Db): Promise<CreatedOrg | undefined> {
  return withTransaction(db, async (tx) => {
    // Several processes may start at once on a fresh database: only one creates the default org.
    await tx.query('SELECT pg_advisory_xact_lock(727002)');
    const any = await tx.query('SELECT 1 FROM orgs LIMIT 1');
    return any.rowCount ? undefined : insertOrg(tx, 'default', 'active');
  });
}

async function insertOrg(tx: Queryable, name: string, status: SubscriptionStatus): Promise<CreatedOrg> {
  const org = await tx.query<{ id: number }>('INSERT INTO orgs (name, subscription_status) VALUES ($1, $2) RETURNING id', [name, status]);
  const orgId = org.rows[0]!.id;
  const user = await tx.query<{ id: number }>("INSERT INTO users (org_id, name) VALUES ($1, 'admin') RETURNING id", [orgId]);
  const userId = user.rows[0]!.id;
  const { key } = await insertApiKey(tx, orgId, userId, 'admin');
  return { orgId, userId, apiKey: key };
}

export async function insertApiKey(db: Queryable, orgId: number, userId: number, name: string, fixedQuota?: number): Promise<{ id: number; key: string; prefix: string }> {
  const { key, prefix, hash } = generateApiKey();
  const row = await db.query<{ id: number }>(
    'INSERT INTO api_keys (org_id, user_id, name, prefix, key_hash, fixed_quota) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [orgId, userId, name, prefix, hash, fixedQuota ?? null],
  );
  return { id: row.rows[0]!.id, key, prefix };
}

/** Creates a key for the org's first user (the CLI's `key create`). */
export async function createApiKey(db: Db, orgId: number, name: string, fixedQuota?: number): Promise<{ id: number; key: string; prefix: string }> {
  const user = await db.query<{ id: number }>('SELECT id FROM users WHERE org_id = $1 ORDER BY id LIMIT 1', [orgId]);
  if (!user.rowCount) throw new Error(`organization ${orgId} does not exist`);
  return insertApiKey(db, orgId, user.rows[0]!.id, name, fixedQuota);
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

export async function setSubscriptionStatus(db: Db, orgId: number, status: SubscriptionStatus): Promise<boolean> {
  const result = await db.query('UPDATE orgs SET subscription_status = $2 WHERE id = $1', [orgId, status]);
  return result.rowCount === 1;
}

export interface KeyOwner {
  keyId: number;
  orgId: number;
  userId: number;
  subscriptionStatus: SubscriptionStatus;
  billingUrl: string | null;
}

/** Who a presented key belongs to, or undefined for an unknown or revoked key. */
export async function findKeyOwner(db: Queryable, key: string): Promise<KeyOwner | undefined> {
  const result = await db.query<KeyOwner>(
    `SELECT k.id AS "keyId", k.org_id AS "orgId", k.user_id AS "userId",
            o.subscription_status AS "subscriptionStatus", o.billing_url AS "billingUrl"
       FROM api_keys k JOIN orgs o ON o.id = k.org_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hashApiKey(key)],
  );
  return result.rows[0];
}
