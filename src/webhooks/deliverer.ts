
// The webhook deliverer of a worker process: claims due deliveries, sends them (several at once),
// records each attempt and schedules the retry. Any number of deliverers may run on one database:
// claims skip each other's rows. It sleeps until the next delivery is due, and wakes early when a
// transaction that fanned an event out commits (LISTEN/NOTIFY), when one of its sends finishes, or
// when its listening connection is lost.
import { Alarm, ChannelListener } from '../db/listen.ts';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createGuardedClient, type GuardedClient } from '../security/ssrf.ts';
import { attempt } from './deliver.ts';
import { claimDue, msUntilNextDue, recordResults, type ClaimedDelivery, type RecordedAttempt } from './deliveries.ts';
import { sandboxInboxUrl } from './inbox.ts';
import { DELIVERY_CHANNEL } from './outbox.ts';
import { createSchedule, type Schedule } from './schedule.ts';

export interface WebhookDeliverer {
  /** Stops claiming, lets the attempts in flight finish (each is bounded by the attempt timeout). */
  stop(): Promise<void>;
}

export interface DelivererDeps {
  db: Db;
  box: SecretBox;
  logger: Logger;
}

/** Without a listening connection, the loop looks this often (a notification may have been missed). */
const MAX_SLEEP_MS = 1000;
/**
 * While listening, every new delivery wakes the loop, and the next retry's or lease's due time is
 * read before sleeping; what it cannot know is a retry another process scheduled after that read,
 * which that process sends itself — unless it died since, and then this cap is how late it may be.
 * Looking every second cost an idle worker two queries a second, for nothing.
 */
const LISTENING_MAX_SLEEP_MS = 60_000;
/** Floor for due rows another deliverer holds: they are released within milliseconds. */
const MIN_SLEEP_MS = 25;
/** What a receiver may answer; the log keeps 1 KB of it. Larger answers fail the attempt (too_large). */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Bounds one statement's size (each result carries up to 1 KB of response body). */
const MAX_RESULTS_PER_WRITE = 500;

export async function startWebhookDeliverer(config: Config, deps: DelivererDeps): Promise<WebhookDeliverer> {
  const schedule = createSchedule(config.webhooks.timeScale);
  const client = createGuardedClient({
    allowLoopback: config.allowLoopbackFetch,
    ca: config.extraCaFile ? readFileSync(config.extraCaFile) : undefined,
    maxBytes: MAX_RESPONSE_BYTES,
    timeoutMs: schedule.timeoutMs,
    maxRedirects: 0, // a redirect is a failed attempt, and its target is never contacted
    ownUrl: sandboxInboxUrl(config),
  });
  const loop = new DeliveryLoop({ ...deps, client, schedule, concurrency: config.webhooks.concurrency });
  const done = loop.run().catch((error: unknown) => deps.logger.error({ err: error }, 'the webhook deliverer stopped on an error'));
  return {
    async stop() {
      loop.stop();
      await done;
      await client.close();
    },
  };
}

interface LoopDeps extends DelivererDeps {
  client: GuardedClient;
  schedule: Schedule;
  concurrency: number;
}

class DeliveryLoop {
  private readonly deps: LoopDeps;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly alarm = new Alarm();
  private readonly results: ResultWriter;
  private readonly listener: ChannelListener;
  private stopping = false;

  constructor(deps: LoopDeps) {
    this.deps = deps;
    this.results = new ResultWriter(deps.db, deps.logger);
    this.listener = new ChannelListener(deps.db, DELIVERY_CHANNEL, () => this.alarm.ring(), deps.logger, 'webhook deliverer');
  }

  async run(): Promise<void> {
    let backlog = false;
    while (!this.stopping) {
      await this.listener.listen();
      const free = this.deps.concurrency - this.inFlight.size;
      // With a backlog, claim in batches rather than one row per finished send: a claim is a commit.
      const enough = backlog ? Math.ceil(this.deps.concurrency / 4) : 1;
      if (free < enough) {
        await this.alarm.sleep(MAX_SLEEP_MS); // rung when a send finishes
        continue;
      }
      const claimed = await this.claim(free);
      for (const claim of claimed) this.track(this.deliver(claim));
      backlog = claimed.length === free;
      if (!backlog) await this.alarm.sleep(await this.untilNextDue());
    }
    await Promise.allSettled(this.inFlight);
    this.listener.close();
  }

  stop(): void {
    this.stopping = true;
    this.alarm.ring();
  }

  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    try {
      return await claimDue(this.deps.db, limit, this.deps.schedule.leaseMs);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhook deliveries could not be claimed; trying again');
      return [];
    }
  }

  private async deliver(claim: ClaimedDelivery): Promise<void> {
    const result = await attempt(this.deps.client, this.deps.box, claim);
    await this.results.record({ claim, result, retryDelayMs: this.deps.schedule.retryDelayMs(claim.attemptCount) });
    this.deps.logger.debug({ deliveryId: claim.deliveryId, webhookId: claim.webhookId, attempt: claim.attemptCount, ok: result.ok, kind: result.errorKind }, 'webhook attempt');
  }

  private track(sending: Promise<void>): void {
    this.inFlight.add(sending);
    void sending.catch((error: unknown) => this.deps.logger.error({ err: error }, 'webhook send failed unexpectedly')).finally(() => {
      this.inFlight.delete(sending);
      this.alarm.ring(); // a free slot, and perhaps a retry due sooner than we planned to look
    });
  }

  private async untilNextDue(): Promise<number> {
    const cap = this.listener.connection ? LISTENING_MAX_SLEEP_MS : MAX_SLEEP_MS;
    try {
      const ms = await msUntilNextDue(this.deps.db);
      return ms === undefined ? cap : Math.min(cap, Math.max(MIN_SLEEP_MS, ms));
    } catch {
      return MAX_SLEEP_MS;
    }
  }

}

/**
 * Group commit for attempt results: one write at a time; results that finish while it is in flight go
 * together in the next one. Idle, a result is written at once; busy, one commit covers many.
 */
class ResultWriter {
  private readonly db: Db;
  private readonly logger: Logger;
  private queue: { item: RecordedAttempt; written: () => void }[] = [];
  private writing = false;

  constructor(db: Db, logger: Logger) {
    this.db = db;
    this.logger = logger;
  }

  record(item: RecordedAttempt): Promise<void> {
    return new Promise((written) => {
      this.queue.push({ item, written });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_RESULTS_PER_WRITE);
      await this.write(batch.map((b) => b.item));
      for (const b of batch) b.written();
    }
    this.writing = false;
  }

  private async write(items: RecordedAttempt[], tries = 3): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await recordResults(this.db, items);
      } catch (error) {
        if (attempt >= tries) {
          // Left unrecorded, each delivery's lease lapses and it is sent again: a duplicate, never a loss.
          this.logger.warn({ err: error, attempts: items.length }, 'webhook attempt results could not be recorded');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }
}

