
// The webhook deliverer of a worker process: claims due deliveries, sends them (several at once),
// records each attempt and schedules the retry, in the loop of every background queue
// (background/loop.ts). Any number of deliverers may run on one database: claims skip each other's
// rows. A transaction that fans an event out notifies DELIVERY_CHANNEL, which wakes it.
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { startLoop } from '../background/loop.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createGuardedClient } from '../security/ssrf.ts';
import { attempt } from './attempt.ts';
import { claimDue, msUntilNextDue, recordResults, type ClaimedDelivery, type RecordedAttempt } from './queue.ts';
import { DELIVERY_CHANNEL } from './outbox.ts';
import { createSchedule } from './schedule.ts';

export interface WebhookDeliverer {
  /** Stops claiming, lets the attempts in flight finish (each is bounded by the attempt timeout). */
  stop(): Promise<void>;
}

export interface DelivererDeps {
  db: Db;
  box: SecretBox;
  logger: Logger;
  /** The sandbox's webhook inbox (src/sandbox/inbox.ts): the one loopback URL the guard lets through. */
  inboxUrl?: string;
}

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
    ownUrl: deps.inboxUrl,
  });
  const results = new ResultWriter(deps.db, deps.logger);
  const loop = startLoop<ClaimedDelivery>(deps.db, deps.logger, {
    label: 'webhook deliverer',
    channel: DELIVERY_CHANNEL,
    claim: (limit) => claimDue(deps.db, limit, schedule.leaseMs),
    msUntilNextDue: () => msUntilNextDue(deps.db),
    run: async (claim) => {
      const result = await attempt(client, deps.box, claim);
      await results.record({ claim, result, retryDelayMs: schedule.retryDelayMs(claim.attemptCount) });
      deps.logger.debug({ deliveryId: claim.deliveryId, webhookId: claim.webhookId, attempt: claim.attemptCount, ok: result.ok, kind: result.errorKind }, 'webhook attempt');
    },
  }, { concurrency: config.webhooks.concurrency });
  return {
    async stop() {
      await loop.stop();
      await client.close();
    },
  };
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

