// The one PostgreSQL pool and the transaction helper every domain uses.
import pg from 'pg';

export type Db = pg.Pool;
export type Tx = pg.PoolClient;
/** Anything that can run a query: the pool, or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

// bigint and timestamptz come back as strings/Dates by default; ids are bigints that fit in JS numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(connectionString: string, max = 20): Db {
  // No JIT compilation: Crier's statements take a millisecond or less, and PostgreSQL compiles any
  // plan whose estimate passes jit_above_cost — an estimate made on statistics that are missing
  // (a fresh install, autovacuum not yet round) or stale. Measured: a create batch's counter trigger
  // (post-counts.sql) estimated at 162,895 took 17 ms, 15.8 of them compiling, against 1.5 ms without
  // JIT, on every batch. A SET, not a startup option: poolers such as PgBouncer refuse startup
  // options. The pool awaits onConnect before it hands the connection out; a failure ends it.
  const onConnect = async (client: pg.ClientBase) => { await client.query('SET jit = off'); };
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, onConnect });
  // An idle client losing its connection (e.g. PostgreSQL restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
}

/** Runs `work` in one transaction; rolls back on any error and rethrows it. */
export async function withTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Runs `work` inside a savepoint of `tx`: a failure rolls back only what `work` did. */
export async function trySavepoint<T>(tx: Tx, name: string, work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const value = await work();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return { ok: true, value };
  } catch (error) {
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
    return { ok: false, error };
  }
}

/**
 * A named (prepared) statement for a hot query: PostgreSQL plans it once per connection instead of on
 * every call. The name is derived from the text, so callers cannot give two texts one name.
 */
export function prepared(text: string): { name: string; text: string } {
  let name = preparedNames.get(text);
  if (name === undefined) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    name = `crier_${hash.toString(36)}_${text.length}`;
    if (preparedNames.size >= PREPARED_NAMES_KEPT) preparedNames.clear();
    preparedNames.set(text, name);
  }
  return { name, text };
}

/**
 * The name of each text seen: hashing a create's 2.5 KB statement in JavaScript on every batch was
 * 1.2% of a create's client CPU (perf, 2026-11-30), a Map lookup is native. The hot texts are a few
 * dozen; the lists' (one per filter shape and page size) could be many, so the map starts over
 * rather than grow past PREPARED_NAMES_KEPT.
 */
const preparedNames = new Map<string, string>();
const PREPARED_NAMES_KEPT = 1_000;
