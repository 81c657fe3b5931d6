// Rules 1-3 of POST /v1/posts: which connected accounts a request's `accounts` entries name.
import { BatchQueue } from '../db/batch-queue.ts';
import { decodeId } from '../core/ids.ts';
import { prepared, type Queryable } from '../db/pool.ts';
import type { NetworkId } from '../core/network-id.ts';

export interface ResolvedAccount {
  id: number;
  network: NetworkId;
  username: string;
  nickname: string;
  /** The account carries a tenant that requires approval (tenant_settings, migration 037). */
  tenantRequiresApproval?: boolean;
}

export interface AccountsRequest {
  orgId: number;
  entries: string[];
}

/**
 * An entry matches an account of the request's org by its encoded id or by exact username (any
 * network, active or not). For each request, its accounts in the order of the entries that named
 * them, each once. One statement for a whole batch of requests.
 */
export async function resolveAccounts(db: Queryable, requests: AccountsRequest[]): Promise<ResolvedAccount[][]> {
  const byId: { ord: number[]; org: number[]; id: number[] } = { ord: [], org: [], id: [] };
  const byName: { ord: number[]; org: number[]; name: string[] } = { ord: [], org: [], name: [] };
  requests.forEach(({ orgId, entries }, ord) => {
    for (const entry of entries) {
      const id = decodeId(entry);
      if (id !== undefined) {
        byId.ord.push(ord);
        byId.org.push(orgId);
        byId.id.push(id);
      }
      byName.ord.push(ord);
      byName.org.push(orgId);
      byName.name.push(entry);
    }
  });
  const { rows } = await db.query<ResolvedAccount & { ord: number }>({
    ...prepared(`SELECT m.*, EXISTS (SELECT 1 FROM tenant_settings s WHERE s.org_id = m.org_id AND s.tenant_id = m.tenant_id AND s.require_approval)
                          AS "tenantRequiresApproval"
        FROM (SELECT r.ord, a.id, a.network, a.username, a.nickname, a.org_id, a.tenant_id
                FROM unnest($1::int[], $2::bigint[], $3::bigint[]) AS r(ord, org_id, id)
                JOIN social_accounts a ON a.id = r.id AND a.org_id = r.org_id
              UNION
              SELECT r.ord, a.id, a.network, a.username, a.nickname, a.org_id, a.tenant_id
                FROM unnest($4::int[], $5::bigint[], $6::text[]) AS r(ord, org_id, name)
                JOIN social_accounts a ON a.org_id = r.org_id AND a.username = r.name) AS m
      ORDER BY 1, 2`),
    values: [byId.ord, byId.org, byId.id, byName.ord, byName.org, byName.name],
  });
  const found: ResolvedAccount[][] = requests.map(() => []);
  for (const { ord, id, network, username, nickname, tenantRequiresApproval } of rows) {
    found[ord]!.push({ id, network, username, nickname, ...(tenantRequiresApproval ? { tenantRequiresApproval } : {}) });
  }
  return requests.map((request, ord) => inEntryOrder(request.entries, found[ord]!));
}

function inEntryOrder(entries: string[], accounts: ResolvedAccount[]): ResolvedAccount[] {
  const seen = new Set<number>();
  const ordered: ResolvedAccount[] = [];
  for (const entry of entries) {
    const id = decodeId(entry);
    for (const account of accounts) {
      if ((account.id === id || account.username === entry) && !seen.has(account.id)) {
        seen.add(account.id);
        ordered.push(account);
      }
    }
  }
  return ordered;
}

/**
 * Resolves as requests come: the requests that arrive while a resolution is at the database share
 * the next statement (db/batch-queue.ts). One at a time: it runs beside the write of the batch before.
 */
export function createAccountResolver(db: Queryable): BatchQueue<AccountsRequest, ResolvedAccount[]> {
  return new BatchQueue(async (requests: AccountsRequest[]) => {
    const resolved = await resolveAccounts(db, requests);
    return resolved.map((value) => ({ ok: true as const, value }));
  }, { slots: 1, maxBatch: 200 });
}
