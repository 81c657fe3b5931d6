
// The webhook deliverer of a worker process: claims due deliveries, sends them (several at once),
// records each attempt and schedules the retry, in the loop of every background queue
// (background/loop.ts). Any number of deliverers may run on one database: claims skip each other's
// rows. A transaction that fans an event out notifies DELIVERY_CHANNEL, which wakes it.
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { startLoop } from '../background/loop.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { BatchQueue, type Settled } from '../db/batch-queue.ts';
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
  const results = resultWriter(deps.db, deps.logger);
  const loop = startLoop<ClaimedDelivery>(deps.db, deps.logger, {
    label: 'webhook deliverer',
    channel: DELIVERY_CHANNEL,
    claim: (limit) => claimDue(deps.db, limit, schedule.leaseMs),
    msUntilNextDue: () => msUntilNextDue(deps.db),
    run: async (claim) => {
      const result = await attempt(client, deps.box, claim);
      await results.submit({ claim, result, retryDelayMs: schedule.retryDelayMs(claim.attemptCount) });
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
 * Group commit for attempt results (db/batch-queue.ts): one write at a time; results that finish while
 * it is in flight go together in the next one. Idle, a result is written at once; busy, one commit
 * covers many. A write that keeps failing is given up after three tries: left unrecorded, each
 * delivery's lease lapses and it is sent again, a duplicate, never a loss.
 */
function resultWriter(db: Db, logger: Logger): BatchQueue<RecordedAttempt, void> {
  const write = async (items: RecordedAttempt[]): Promise<Settled<void>[]> => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await recordResults(db, items);
        break;
      } catch (error) {
        if (attempt === 3) logger.warn({ err: error, attempts: items.length }, 'webhook attempt results could not be recorded');
        else await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    return items.map(() => ({ ok: true, value: undefined }));
  };
  return new BatchQueue(write, { slots: 1, maxBatch: MAX_RESULTS_PER_WRITE });
}

