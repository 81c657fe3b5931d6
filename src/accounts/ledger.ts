// A network's ledger (networks/contract.ts NetworkLedger) on PostgreSQL: table network_ledger
// (migration 018). A pool's lock is a transaction-scoped advisory lock on (network, pool), so every
// worker of every process admitting to one pool takes turns, and what one read stays true until it
// has recorded its entry.
import { withTransaction, type Db, type Queryable } from '../db/pool.ts';
import type { LedgerPool, LedgerSpend, NetworkLedger } from '../core/ledger.ts';
import type { NetworkId } from '../core/network-id.ts';

interface SpendRow {
  subject: string;
  org_id: string;
  units: string;
  entries: string;
  first: Date;
  last: Date;
}

export function createLedger(db: Db, network: NetworkId): NetworkLedger {
  return {
    withPool: (pool, fn) => withTransaction(db, async (tx) => {
      const { rows } = await tx.query<{ now: Date }>(
        `SELECT pg_advisory_xact_lock(hashtextextended('network_ledger:' || $1 || ':' || $2, 0)), now() AS now`,
        [network, pool],
      );
      return fn(ledgerPool(tx, network, pool, rows[0]!.now));
    }),
    read: async (pool, fn) => {
      const { rows } = await db.query<{ now: Date }>('SELECT now() AS now');
      return fn(ledgerPool(db, network, pool, rows[0]!.now));
    },
  };
}

function ledgerPool(db: Queryable, network: NetworkId, pool: string, now: Date): LedgerPool {
  return {
    now,
    async spent(since) {
      const { rows } = await db.query<SpendRow>(
        `SELECT subject, org_id, sum(units) AS units, count(*) AS entries, min(at) AS first, max(at) AS last
           FROM network_ledger WHERE network = $1 AND pool = $2 AND at >= $3
          GROUP BY subject, org_id ORDER BY min(at), subject`,
        [network, pool, since],
      );
      return rows.map((r): LedgerSpend => ({ subject: r.subject, orgId: Number(r.org_id), units: Number(r.units), entries: Number(r.entries), first: r.first, last: r.last }));
    },
    async record({ subject, orgId, units }) {
      await db.query('INSERT INTO network_ledger (network, pool, subject, org_id, units, at) VALUES ($1, $2, $3, $4, $5, $6)', [network, pool, subject, orgId, units, now]);
    },
  };
}
