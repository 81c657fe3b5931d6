// pg-boss, configured for Crier. Jobs live in the same PostgreSQL as posts, so a post and its jobs
// are created in one transaction.
import { PgBoss, type ConstructorOptions, type Db as IDatabase, type JobInsert } from 'pg-boss';
import type { Queryable } from '../db/pool.ts';

export type Boss = PgBoss;

export function createBoss(connectionString: string, options: Partial<ConstructorOptions> = {}): Boss {
  const boss = new PgBoss({ connectionString, max: 4, ...options });
  // pg-boss reports maintenance problems as events; without a listener Node would throw.
  boss.on('error', () => {});
  return boss;
}

/** Lets pg-boss write its job rows through our transaction. */
export function asBossDb(tx: Queryable): IDatabase {
  return { executeSql: (text, values) => tx.query(text, values as unknown[]) };
}

export async function enqueueInTransaction(boss: Boss, tx: Queryable, queue: string, jobs: JobInsert[]): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(queue, jobs, { db: asBossDb(tx) });
}
