// Group commit: creates that arrive while earlier ones are being written share one transaction
// (batch-queue.ts). A commit costs a WAL flush and a round trip whatever it holds, so under
// concurrency one transaction of twenty small writes is about as cheap as one of a single write.
//
// What a batch does is the caller's `write`: it answers each item on its own (one bad item is a 4xx
// for that request, not for the batch). A batch whose reads need no lock may write with a single
// statement, which is its own transaction (no BEGIN, no COMMIT: two round trips fewer); a batch that
// needs one calls `begin()` first. If `write` fails and nothing was committed — the transaction
// rolled back, or PostgreSQL refused the single statement — each item of a batch of several is
// retried alone, and only the item that fails again gets the error. A failure that may have
// committed (a lost connection, a failed COMMIT) is not retried: a second attempt could write twice.
import pg from 'pg';
import { BatchQueue, type BatchOptions, type Settled } from './batch-queue.ts';
import type { Db, Tx } from './pool.ts';

export type { Settled } from './batch-queue.ts';

export interface BatchSession {
  client: Tx;
  /** Opens the batch's transaction (committed once `write` returns). */
  begin(): Promise<void>;
  /** Whether begin() was called: without it each statement is its own transaction. */
  readonly open: boolean;
}

export type BatchWrite<I, R> = (session: BatchSession, items: I[]) => Promise<Settled<R>[]>;

export function groupCommit<I, R>(db: Db, write: BatchWrite<I, R>, options: BatchOptions): BatchQueue<I, R> {
  const commit = async (items: I[]): Promise<Settled<R>[]> => {
    const outcome = await runBatch(db, write, items);
    if (outcome.kind === 'written') return outcome.results;
    if (outcome.kind === 'nothing_written' && items.length > 1) {
      // One item's unexpected failure must not fail the others: each goes again, alone.
      return Promise.all(items.map(async (item) => (await commit([item]))[0]!));
    }
    return items.map(() => ({ ok: false, error: outcome.error }));
  };
  return new BatchQueue(commit, options);
}

type Outcome<R> = { kind: 'written'; results: Settled<R>[] } | { kind: 'nothing_written' | 'unknown'; error: unknown };

async function runBatch<I, R>(db: Db, write: BatchWrite<I, R>, items: I[]): Promise<Outcome<R>> {
  let client: Tx;
  try {
    client = await db.connect();
  } catch (error) {
    return { kind: 'nothing_written', error };
  }
  let open = false;
  const session: BatchSession = {
    client,
    async begin() {
      await client.query('BEGIN');
      open = true;
    },
    get open() {
      return open;
    },
  };
  let results: Settled<R>[];
  try {
    results = await write(session, items);
    if (results.length !== items.length) throw new Error(`group commit: ${results.length} results for ${items.length} items`);
  } catch (error) {
    if (!open) {
      // Without a transaction only a statement PostgreSQL refused is known to have written nothing.
      const refused = error instanceof pg.DatabaseError;
      client.release(refused ? undefined : (error as Error));
      return { kind: refused ? 'nothing_written' : 'unknown', error };
    }
    const lost = await client.query('ROLLBACK').then(() => undefined, (rollbackError: unknown) => rollbackError);
    // A connection that could not even roll back is broken: the pool must not hand it out again.
    client.release(lost as Error | undefined);
    return { kind: lost ? 'unknown' : 'nothing_written', error };
  }
  if (!open) {
    client.release();
    return { kind: 'written', results };
  }
  try {
    await client.query('COMMIT');
    client.release();
    return { kind: 'written', results };
  } catch (error) {
    client.release(error as Error);
    return { kind: 'unknown', error };
  }
}
