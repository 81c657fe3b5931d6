// Organizations and their users; a new organization's first API key (api-keys.ts).
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import { decodeId } from '../core/ids.ts';
import { insertApiKey } from './api-keys.ts';
import type { SubscriptionStatus } from './subscription.ts';


export interface CreatedOrg {
  orgId: number;
  userId: number;
  apiKey: string;
}

/** Creates an org with an admin user and a first API key; the key is returned once. */
export async function createOrg(db: Db, name: string, status: SubscriptionStatus = 'active'): Promise<CreatedOrg> {
  return withTransaction(db, (tx) => insertOrg(tx, name, status));
}

export interface DefaultOrg {
  orgId: number;
  /** Set on the start that created it: the only time its admin key exists in clear. */
  created: CreatedOrg | undefined;
}

/** The default organization: the first one, created with its admin key on an empty database. */
export async function ensureDefaultOrg(db: Db): Promise<DefaultOrg> {
  return withTransaction(db, async (tx) => {
    // Several processes may start at once on a fresh database: only one creates the default org.
    await tx.query('SELECT pg_advisory_xact_lock(727002)');
    const first = await tx.query<{ id: number }>('SELECT id FROM orgs ORDER BY id LIMIT 1');
    if (first.rows[0]) return { orgId: first.rows[0].id, created: undefined };
    const created = await insertOrg(tx, 'default', 'active');
    return { orgId: created.orgId, created };
  });
}

export interface OrgMatch {
  id: number;
  name: string;
}

/**
 * The organizations `ref` may name: its numeric id, its public orgId, or its exact name. More than
 * one match means the reference is ambiguous (two orgs of that name, or a name that is another's id).
 */
export async function findOrgs(db: Queryable, ref: string): Promise<OrgMatch[]> {
  const id = /^\d{1,15}$/.test(ref) ? Number(ref) : decodeId(ref);
  const { rows } = await db.query<OrgMatch>('SELECT id, name FROM orgs WHERE id = $1 OR name = $2 ORDER BY id', [id ?? null, ref]);
  return rows;
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
