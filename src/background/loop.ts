// The loop every background queue of a worker process runs in (webhook deliveries, inbound
// deliveries, imports): claim due jobs, run them (several at once, or one after another in claim
// order), sleep until the next one is due, wake early on a notification or a finished job, and stop
// with grace (the jobs in flight finish; the claimed ones not started are left to their lease).
//
// Each queue keeps its state in its own table and its claim in its own SQL (`FOR UPDATE SKIP LOCKED`
// under a lease, so any number of processes share it): the domain row is the job. A queue engine with
// its own job table (graphile-worker 0.18, measured 2026-11-29 against the same PostgreSQL 15 on the
// 2-core machine: 3.6 transactions a second and +14 MB RSS for an idle runner, 12 ms median from add to
// start) would add a second copy of that state and cost an idle Crier more than the three loops it
// replaces (an idle loop here makes one query a minute while it listens). See docs/engine.md.
import type { Logger } from 'pino';
import { Alarm, ChannelListener } from '../db/listen.ts';
import type { Db } from '../db/pool.ts';

export interface JobQueue<J> {
  /** What the log calls it ("webhook deliverer"). */
  label: string;
  /** A channel whose notifications mean new jobs; without one the loop polls every `pollMs`. */
  channel?: string;
  /** Claims (leases) up to `limit` due jobs, oldest first. */
  claim(limit: number): Promise<J[]>;
  /** How long until the next job falls due (a retry, a lapsing lease); undefined when none is known. */
  msUntilNextDue?(): Promise<number | undefined>;
  /** Does one job and records its outcome; a throw is logged, and the job's lease brings it back. */
  run(job: J): Promise<void>;
}

export interface LoopOptions {
  /** Jobs run at once. 1: one after another, in the order claimed. */
  concurrency: number;
  /** Jobs claimed at once when fewer slots are free (a claim is a commit): ordered queues claim ahead. */
  claimAhead?: number;
  /** The longest sleep while listening: notifications bring new jobs, this bounds a missed retry. */
  idleMs?: number;
  /** The longest sleep without a listening connection, and the poll of a queue without a channel. */
  pollMs?: number;
  /** The shortest sleep before a due job another process holds is looked at again. */
  minSleepMs?: number;
}

export interface RunningLoop {
  /** Wakes the loop now (a job was added in this process). */
  wake(): void;
  /** Stops claiming and waits for the jobs in flight. */
  stop(): Promise<void>;
}

const DEFAULTS = { idleMs: 60_000, pollMs: 1_000, minSleepMs: 25 };

export function startLoop<J>(db: Db, logger: Logger, queue: JobQueue<J>, options: LoopOptions): RunningLoop {
  const loop = new Loop(db, logger, queue, { ...DEFAULTS, claimAhead: options.concurrency, ...options });
  const done = loop.run().catch((error: unknown) => logger.error({ err: error }, `the ${queue.label} stopped on an error`));
  return {
    wake: () => loop.wake(),
    async stop() {
      loop.stop();
      await done;
    },
  };
}

class Loop<J> {
  private readonly alarm = new Alarm();
  private readonly listener: ChannelListener | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private claimed: J[] = [];
  private stopping = false;
  private readonly logger: Logger;
  private readonly queue: JobQueue<J>;
  private readonly options: Required<LoopOptions>;

  constructor(db: Db, logger: Logger, queue: JobQueue<J>, options: Required<LoopOptions>) {
    this.logger = logger;
    this.queue = queue;
    this.options = options;
    this.listener = queue.channel ? new ChannelListener(db, queue.channel, () => this.wake(), logger, queue.label) : undefined;
  }

  async run(): Promise<void> {
    let backlog = false;
    while (!this.stopping) {
      await this.listener?.listen();
      const free = this.options.concurrency - this.inFlight.size;
      // With a backlog, claim in batches rather than one job per finished one: a claim is a commit.
      const enough = backlog ? Math.ceil(this.options.concurrency / 4) : 1;
      if (this.claimed.length || free < enough) {
        await this.alarm.sleep(this.options.pollMs); // rung when a job finishes
        continue;
      }
      const limit = Math.max(free, this.options.claimAhead);
      this.claimed = await this.claim(limit);
      backlog = this.claimed.length === limit;
      this.startClaimed();
      if (!backlog) await this.alarm.sleep(await this.untilNextDue());
    }
    this.claimed = []; // not started: taken again when their lease lapses
    await Promise.allSettled(this.inFlight);
    this.listener?.close();
  }

  wake(): void {
    this.alarm.ring();
  }

  stop(): void {
    this.stopping = true;
    this.alarm.ring();
  }

  private async claim(limit: number): Promise<J[]> {
    try {
      return await this.queue.claim(limit);
    } catch (error) {
      this.logger.warn({ err: error }, `the ${this.queue.label} could not claim its jobs; trying again`);
      return [];
    }
  }

  private startClaimed(): void {
    while (!this.stopping && this.claimed.length && this.inFlight.size < this.options.concurrency) {
      this.track(this.queue.run(this.claimed.shift()!));
    }
  }

  private track(job: Promise<void>): void {
    this.inFlight.add(job);
    void job
      .catch((error: unknown) => this.logger.error({ err: error }, `a job of the ${this.queue.label} failed unexpectedly; its lease brings it back`))
      .finally(() => {
        this.inFlight.delete(job);
        this.startClaimed();
        this.alarm.ring(); // a free slot, and perhaps a retry due sooner than the loop planned to look
      });
  }

  private async untilNextDue(): Promise<number> {
    const cap = this.listener?.connection ? this.options.idleMs : this.options.pollMs;
    if (!this.queue.msUntilNextDue) return cap;
    try {
      const ms = await this.queue.msUntilNextDue();
      return ms === undefined ? cap : Math.min(cap, Math.max(this.options.minSleepMs, ms));
    } catch {
      return this.options.pollMs;
    }
  }
}
