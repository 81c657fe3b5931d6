// A network's shared counters as every room that spends them sees them (publishing, engagement,
// inbound); src/accounts/ledger.ts keeps them in PostgreSQL.

/**
 * A network's own counters, shared by every worker of every process and kept across restarts (table
 * network_ledger, one row per entry): what a quota pool the network imposes on the whole app has
 * spent, and by whom. Entries are never removed by Crier's publishing; `spent(since)` reads a window.
 */
export interface NetworkLedger {
  /**
   * Runs `fn` in one transaction holding the pool's lock (pools are per network: 'uploads',
   * 'direct_post_creators'…): what it reads cannot change until it returns, and what it records is
   * committed with it. Keep `fn` short: every worker admitting to the pool waits for it.
   */
  withPool<T>(pool: string, fn: (pool: LedgerPool) => Promise<T>): Promise<T>;
  /** The same figures without the lock (reports: GET /v1/usage). */
  read<T>(pool: string, fn: (pool: Omit<LedgerPool, 'record'>) => Promise<T>): Promise<T>;
}

export interface LedgerPool {
  /** PostgreSQL's clock when the transaction began: judge windows by it, not the worker's. */
  readonly now: Date;
  /** Entries at or after `since`, summed per subject and organization, oldest first spender first. */
  spent(since: Date): Promise<LedgerSpend[]>;
  /** One more entry, at `now`. */
  record(entry: { subject: string; orgId: number; units: number }): Promise<void>;
}

export interface LedgerSpend {
  /** What the network counts: a creator's id, an account… */
  subject: string;
  orgId: number;
  units: number;
  entries: number;
  first: Date;
  last: Date;
}
