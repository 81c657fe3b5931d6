// Organizations, their users and API keys.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { insertApiKey } from './api-keys.ts';

// API keys live in api-keys.ts; re-exported so existing imports keep working.
export { createApiKey, findKeyOwner, insertApiKey, revokeApiKey, type KeyOwner } from './api-keys.ts';

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

export async function setSubscriptionStatus(db: Db, orgId: number, status: SubscriptionStatus): Promise<boolean> {
  const result = await db.query('UPDATE orgs SET subscription_status = $2 WHERE id = $1', [orgId, status]);
  return result.rowCount === 1;
}
