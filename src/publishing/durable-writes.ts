// The publishing worker's writes (a reservation before a network call, an outcome after it, a quota
// admission) through the one group-commit queue (db/batch-queue.ts), one write at a time: whatever
// arrives meanwhile goes into the next. Written one by one, commits are what limits a worker; idle, a
// write goes out at once; busy, one commit covers many.
//
// A write that fails is retried, split into single items so that one bad item cannot hold back the
// others, and a single item is retried with a growing delay until it is written: the destinations
// it belongs to are held by this worker's lease, so giving up would strand them (a stopped worker
// leaves them to be taken over instead, see engine.ts).
import type { Logger } from 'pino';
import { BatchQueue, type Settled } from '../db/batch-queue.ts';

export interface DurableWriteOptions<I, O> {
  /** Writes `items` in one transaction; returns one result per item, in order. */
  write(items: I[]): Promise<O[]>;
  maxBatch: number;
  /** See BatchOptions.lingerMs: for writes nobody waits on. */
  lingerMs?: number;
  logger: Logger;
  /** What the log says is being written. */
  label: string;
}

export type DurableWrites<I, O> = BatchQueue<I, O>;

export function durableWrites<I, O>(options: DurableWriteOptions<I, O>): DurableWrites<I, O> {
  const { write, logger, label } = options;
  const writeOne = async (item: I): Promise<O> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await write([item]))[0]!;
      } catch (error) {
        if (attempt === 1 || attempt % 10 === 0) logger.error({ err: error, attempt }, `${label}: a write keeps failing; retrying`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 100 * 2 ** attempt)));
      }
    }
  };
  const run = async (items: I[]): Promise<Settled<O>[]> => {
    try {
      return (await write(items)).map((value) => ({ ok: true, value }));
    } catch (error) {
      logger.warn({ err: error, items: items.length }, `${label}: a batched write failed; writing its items one by one`);
    }
    const results: Settled<O>[] = [];
    for (const item of items) results.push({ ok: true, value: await writeOne(item) });
    return results;
  };
  return new BatchQueue(run, { slots: 1, maxBatch: options.maxBatch, lingerMs: options.lingerMs });
}
