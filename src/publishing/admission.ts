// Each network's per-account quota (its `limits.accountQuota`), applied before a destination calls
// the network: when the account has published its quota within the window, the destination waits for
// the time the window frees a place (reserved for it, in arrival order) instead of being refused by
// the network. The reservations live in the database (migration 016) so every worker shares them;
// a worker's admissions go in group commits, like its steps, since every destination asks once.
import type { Logger } from 'pino';
import type { AccountQuotaOverrides } from '../config.ts';
import { prepared, type Queryable } from '../db/pool.ts';
import type { AccountQuota, Network } from '../networks/contract.ts';
import type { NetworkId } from '../core/network-id.ts';
import { durableWrites } from './durable-writes.ts';

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

export interface Admission {
  accountId: number;
  targetId: number;
  /** Containers of the post: the units of a network that counts each one. */
  containers: number;
  quota: AccountQuota;
}

/**
 * Admits a destination to its account's quota; resolves to the milliseconds it must wait before
 * calling the network (0 or less: go now). The same destination asking again (a retry, after its
 * wait, after a crash) gets the time it was given.
 */
export type Admit = (admission: Admission) => Promise<number>;

/**
 * How often a worker's admissions also sweep the admissions no later one asks about: a window-old
 * row is garbage, not a constraint, and sweeping with every batch was a sixth of admitting.
 */
const SWEEP_EVERY_MS = 1000;

/** One admission write runs at a time; those that arrive meanwhile share the next. */
export function batchedAdmissions(db: Queryable, logger: Logger): Admit {
  let sweptAt = 0;
  const write = (items: Admission[]) => {
    const sweep = Date.now() - sweptAt >= SWEEP_EVERY_MS;
    if (sweep) sweptAt = Date.now();
    return admitAll(db, items, sweep);
  };
  const admissions = durableWrites<Admission, number>({ write, maxBatch: 512, logger, label: 'quota admissions' });
  return (admission) => admissions.submit(admission);
}

// Never inside another transaction: publishing_admit turns off synchronous_commit for the
// transaction it runs in (migration 016 says why).
const ADMIT_BATCH = prepared(`SELECT target_id, wait_ms FROM publishing_admit_batch($1::bigint[], $2::bigint[], $3::int[], $4::int[], $5::float8[], $6::boolean)`);

async function admitAll(db: Queryable, items: Admission[], sweep: boolean): Promise<number[]> {
  const column = <T>(pick: (a: Admission) => T) => items.map(pick);
  const { rows } = await db.query<{ target_id: number; wait_ms: number }>({
    ...ADMIT_BATCH,
    values: [
      column((a) => a.accountId),
      column((a) => a.targetId),
      column((a) => (a.quota.counts === 'containers' ? a.containers : 1)),
      column((a) => a.quota.max),
      column((a) => a.quota.windowMs / 1000),
      sweep,
    ],
  });
  const waits = new Map(rows.map((r) => [Number(r.target_id), Number(r.wait_ms)]));
  return items.map((a) => waits.get(a.targetId)!);
}
