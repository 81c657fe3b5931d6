// Group commit: the many destinations a worker has in flight each need small writes (a reservation
// before a network call, an outcome after it). Written one by one, commits are what limits a worker;
// here one write runs at a time and whatever arrives meanwhile goes into the next one. Idle, a write
// goes out at once; busy, one commit covers many.
import type { Logger } from 'pino';

export interface BatcherOptions<I, O> {
  /** Writes `items` in one transaction; returns one result per item, in order. */
  write(items: I[]): Promise<O[]>;
  maxBatch: number;
  /**
   * When fewer than maxBatch / 4 items wait, wait this long for more before writing (0: write at
   * once). For writes nobody waits on: a round trip costs a worker more than most of what it writes.
   */
  lingerMs?: number;
  logger: Logger;
  /** What the log says is being written. */
  label: string;
}

interface Waiting<I, O> {
  item: I;
  resolve(result: O): void;
}

/**
 * A write that fails is retried, split into single items so that one bad item cannot hold back the
 * others, and a single item is retried with a growing delay until it is written: the destinations
 * it belongs to are held by this worker's lease, so giving up would strand them (a stopped worker
 * leaves them to be taken over instead, see engine.ts).
 */
export class Batcher<I, O> {
  private readonly options: BatcherOptions<I, O>;
  private waiting: Waiting<I, O>[] = [];
  private writing: Promise<void> | undefined;

  constructor(options: BatcherOptions<I, O>) {
    this.options = options;
  }

  submit(item: I): Promise<O> {
    return new Promise((resolve) => {
      this.waiting.push({ item, resolve });
      this.writing ??= this.drain();
    });
  }

  /** Resolves once everything submitted so far is written. */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      const linger = this.options.lingerMs ?? 0;
      if (linger > 0 && this.waiting.length < this.options.maxBatch / 4) await new Promise((resolve) => setTimeout(resolve, linger));
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, this.options.maxBatch);
        await this.writeBatch(batch);
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async writeBatch(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.options.write(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]!));
      return;
    } catch (error) {
      this.options.logger.warn({ err: error, items: batch.length }, `${this.options.label}: a batched write failed; writing its items one by one`);
    }
    for (const waiting of batch) waiting.resolve(await this.writeOne(waiting.item));
  }

  private async writeOne(item: I): Promise<O> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.options.write([item]))[0]!;
      } catch (error) {
        if (attempt === 1 || attempt % 10 === 0) this.options.logger.error({ err: error, attempt }, `${this.options.label}: a write keeps failing; retrying`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 100 * 2 ** attempt)));
      }
    }
  }
}
