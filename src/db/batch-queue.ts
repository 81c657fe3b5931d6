// Requests that arrive while earlier ones are at the database wait and then go together: one round
// trip (or one transaction) for many. An idle queue adds no delay unless told to linger: a request
// that finds a slot free goes at once, alone; only requests that arrive while every slot is busy
// wait, and they leave together. A caller may also announce requests on their way (expect()): a
// batch about to start waits a little for those, never for ones not yet announced. The one
// group-commit primitive of Crier: the creates' transactions (group-commit.ts), the API-key lookup
// of every request, the publishing worker's steps, outcomes and quota admissions
// (publishing/durable-writes.ts), the webhook deliverer's attempt results.
//
// What a failed batch means is the caller's `run`: it answers each item (a create's own 4xx), or
// retries until written (a worker's write that its lease depends on), or gives up and logs.

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface BatchOptions {
  /** Batches in flight at once: each holds one pooled connection. */
  slots: number;
  /** Requests in one batch at most. */
  maxBatch: number;
  /**
   * When a slot starts from idle with fewer than maxBatch / 4 items waiting, wait this long for more
   * (0 or absent: go at once). For writes nobody waits on: a round trip costs more than the wait.
   */
  lingerMs?: number;
  /**
   * A batch about to start waits up to this long for the items announced by expect() before it
   * started, and no longer once they have all come or been given up (0 or absent: it never waits).
   */
  awaitExpectedMs?: number;
}

interface Waiting<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class BatchQueue<I, R> {
  private readonly queue: Waiting<I, R>[] = [];
  private inFlight = 0;
  private idle: (() => void)[] = [];
  private readonly run: (items: I[]) => Promise<Settled<R>[]>;
  private readonly options: BatchOptions;
  /** Items announced by expect() and not yet arrived nor given up. */
  private expected = 0;
  /** Announced items that arrived or were given up, ever: what a waiting batch counts. */
  private settledExpected = 0;
  /** The waiting batches' checks, called as each announced item arrives or is given up. */
  private readonly onExpectedSettled = new Set<() => void>();

  /** `run` answers each item of a batch; if it throws, every item of the batch gets that error. */
  constructor(run: (items: I[]) => Promise<Settled<R>[]>, options: BatchOptions) {
    this.run = run;
    this.options = options;
  }

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.startBatches(true);
    });
  }

  /**
   * One item is on its way: its request is reading what it needs before it submits. A batch about to
   * start waits for it (awaitExpectedMs). Call the returned function right before submitting the
   * item, or when it will not come; a second call does nothing.
   */
  expect(): () => void {
    this.expected++;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      this.expected--;
      this.settledExpected++;
      for (const check of this.onExpectedSettled) check();
    };
  }

  /** Resolves once everything submitted so far is answered. */
  flushed(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private startBatches(fromIdle: boolean): void {
    while (this.inFlight < this.options.slots && this.queue.length > 0) {
      this.inFlight++;
      const linger = fromIdle && (this.options.lingerMs ?? 0) > 0 && this.queue.length < this.options.maxBatch / 4;
      void this.nextBatch(linger).finally(() => {
        this.inFlight--;
        this.startBatches(false);
        if (this.inFlight === 0 && this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  private async nextBatch(linger: boolean): Promise<void> {
    if (linger) await new Promise((resolve) => setTimeout(resolve, this.options.lingerMs));
    // Awaited only when there is something to wait for: otherwise the batch starts in this very turn.
    const expected = this.awaitExpected();
    if (expected) await expected;
    const batch = this.queue.splice(0, this.options.maxBatch);
    if (batch.length) await this.settle(batch);
  }

  /**
   * Waits for the items announced when the batch starts, not for those announced meanwhile (under a
   * steady stream it would never stop), up to awaitExpectedMs. An announced item settles right
   * before its submit, which runs in the same turn: by the time this resumes it is in the queue.
   */
  private awaitExpected(): Promise<void> | undefined {
    const limitMs = this.options.awaitExpectedMs ?? 0;
    if (limitMs <= 0 || this.expected === 0 || this.queue.length >= this.options.maxBatch) return undefined;
    const until = this.settledExpected + this.expected;
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.settledExpected >= until) done();
      };
      const done = () => {
        clearTimeout(timer);
        this.onExpectedSettled.delete(check);
        resolve();
      };
      const timer = setTimeout(done, limitMs);
      this.onExpectedSettled.add(check);
    });
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
