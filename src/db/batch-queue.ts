// Requests that arrive while earlier ones are at the database wait and then go together: one round
// trip (or one transaction) for many. An idle server adds no delay: a request that finds a slot free
// goes at once, alone; only requests that arrive while every slot is busy wait, and they leave
// together. Used for group commit (group-commit.ts) and for the API-key lookup of every request.

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface BatchOptions {
  /** Batches in flight at once: each holds one pooled connection. */
  slots: number;
  /** Requests in one batch at most. */
  maxBatch: number;
}

interface Waiting<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class BatchQueue<I, R> {
  private readonly queue: Waiting<I, R>[] = [];
  private inFlight = 0;
  private readonly run: (items: I[]) => Promise<Settled<R>[]>;
  private readonly options: BatchOptions;

  /** `run` answers each item of a batch; if it throws, every item of the batch gets that error. */
  constructor(run: (items: I[]) => Promise<Settled<R>[]>, options: BatchOptions) {
    this.run = run;
    this.options = options;
  }

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.inFlight < this.options.slots && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.settle(batch).finally(() => {
        this.inFlight--;
        this.startBatches();
      });
    }
  }

  private async settle(batch: Waiting<I, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((w) => w.item));
      if (results.length !== batch.length) throw new Error(`batch: ${results.length} results for ${batch.length} items`);
      results.forEach((result, i) => (result.ok ? batch[i]!.resolve(result.value) : batch[i]!.reject(result.error)));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
