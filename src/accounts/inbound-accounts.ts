// The connected accounts a verified delivery is for, as processing needs them.
import type { Queryable } from '../db/pool.ts';
import type { NetworkId } from '../core/network-id.ts';

export interface InboundAccount {
  id: number;
  orgId: number;
  network: NetworkId;
  networkUniqueId: string;
  /** Connected with the messaging scope asked for: its direct messages are received. */
  messaging: boolean;
}

export async function inboundAccounts(db: Queryable, ids: number[]): Promise<InboundAccount[]> {
  const { rows } = await db.query<{ id: number; org_id: number; network: NetworkId; network_unique_id: string; messaging: boolean }>(
    'SELECT id, org_id, network, network_unique_id, messaging FROM social_accounts WHERE id = ANY($1::bigint[]) ORDER BY id',
    [ids],
  );
  return rows.map((r) => ({ id: r.id, orgId: r.org_id, network: r.network, networkUniqueId: r.network_unique_id, messaging: r.messaging }));
}
