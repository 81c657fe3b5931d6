
// The inbound processor of a worker process (runtime.ts starts it with the publishing worker): claims
// stored deliveries, processes them one at a time in arrival order, and records the outcome, in the
// loop of every background queue (background/loop.ts). Storing a delivery notifies INBOUND_CHANNEL,
// which wakes it; an idle loop looks at most once a minute (each look kept ~8 MB more of an idle
// process resident when it looked every second: `npm run bench:footprint`).
import type { Logger } from 'pino';
import { startLoop } from '../background/loop.ts';
import { every } from '../background/schedule.ts';
import type { Db } from '../db/pool.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { SecretBox } from '../security/crypto.ts';
import { userFetchFor } from '../security/ssrf.ts';
import { claimDeliveries, markFailed, markProcessed, msUntilNextDue, purgeInbound, type ClaimedDelivery } from './queue.ts';
import type { ProcessDeps } from './process.ts';
import { INBOUND_CHANNEL } from './receive.ts';

/** Deliveries claimed at once and processed one after another, in arrival order. */
const BATCH = 20;
const PURGE_INTERVAL_MS = 3_600_000;

export interface InboundWorker {
  stop(): Promise<void>;
}

export interface InboundWorkerDeps {
  db: Db;
  box: SecretBox;
  logger: Logger;
  networks: NetworkRegistry;
  allowLoopbackFetch: boolean;
}

export function startInboundWorker(deps: InboundWorkerDeps): InboundWorker {
  const userFetch = userFetchFor(deps.allowLoopbackFetch);
  const process = { db: deps.db, box: deps.box, networks: deps.networks, userFetch };
  const loop = startLoop<ClaimedDelivery>(deps.db, deps.logger, {
    label: 'inbound processor',
    channel: INBOUND_CHANNEL,
    claim: (limit) => claimDeliveries(deps.db, limit),
    msUntilNextDue: () => msUntilNextDue(deps.db),
    run: (delivery) => handle(deps, process, delivery),
  }, { concurrency: 1, claimAhead: BATCH });
  const purge = every(PURGE_INTERVAL_MS, 'removing old inbound deliveries', () => purgeInbound(deps.db), deps.logger);
  return {
    async stop() {
      await purge.stop();
      await loop.stop();
    },
  };
}

async function handle(deps: InboundWorkerDeps, process: ProcessDeps, delivery: ClaimedDelivery): Promise<void> {
  try {
    // Loaded with the first delivery: a Crier that receives none does not carry it.
    const { processDelivery } = await import('./process.ts');
    const { items } = await processDelivery(process, delivery);
    await markProcessed(deps.db, delivery.id);
    deps.logger.debug({ deliveryId: delivery.id, items }, 'inbound delivery processed');
  } catch (error) {
    deps.logger.warn({ err: error, deliveryId: delivery.id, attempt: delivery.attempts }, 'inbound delivery processing failed; it will be tried again');
    await markFailed(deps.db, delivery.id, delivery.attempts, (error as Error).message).catch(() => undefined);
  }
}
