// Each network's per-account quota (its `limits.accountQuota`), applied before a destination calls
// the network: when the account has published its quota within the window, the destination waits for
// the time the window frees a place (reserved for it, in arrival order) instead of being refused by
// the network. The reservations live in the database (migration 016) so every worker shares them.
import type { AccountQuotaOverrides } from '../config.ts';
import { prepared, type Queryable } from '../db/pool.ts';
import type { AccountQuota, Network } from '../networks/contract.ts';
import type { NetworkId } from '../networks/types.ts';

export type AccountQuotas = Partial<Record<NetworkId, AccountQuota>>;

/** The quotas the engine applies: each network's own, unless CRIER_ACCOUNT_QUOTAS replaced it. */
export function accountQuotas(networks: readonly Network[], overrides: AccountQuotaOverrides): AccountQuotas {
  if (overrides === 'off') return {};
  const quotas: AccountQuotas = {};
  for (const network of networks) {
    const own = network.limits.accountQuota;
    const override = overrides[network.id];
    if (override === 'off') continue;
    if (override) quotas[network.id] = { max: override.max, windowMs: override.windowMs, counts: own?.counts ?? 'posts' };
    else if (own) quotas[network.id] = own;
  }
  return quotas;
}

// Its own statement, never inside another transaction: the function turns off synchronous_commit for
// the transaction it runs in (migration 016 says why).
const ADMIT = prepared(`SELECT publishing_admit($1, $2, $3, $4, make_interval(secs => $5)) AS wait_ms`);

/**
 * Admits destination `targetId` to its account's quota; returns how many milliseconds it must wait
 * before calling the network (0 or less: go now). The same destination asking again (a retry, after
 * its wait, after a crash) gets the time it was given.
 */
export async function admit(db: Queryable, accountId: number, targetId: number, containers: number, quota: AccountQuota): Promise<number> {
  const weight = quota.counts === 'containers' ? containers : 1;
  const { rows } = await db.query<{ wait_ms: number }>({ ...ADMIT, values: [accountId, targetId, weight, quota.max, quota.windowMs / 1000] });
  return Number(rows[0]!.wait_ms);
}
