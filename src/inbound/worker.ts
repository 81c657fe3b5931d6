
// The inbound processor of a worker process (runtime.ts starts it with the publishing worker): claims
// stored deliveries, processes them one at a time in arrival order, and records the outcome. Woken at
// once when a delivery is stored (LISTEN/NOTIFY) or its listening connection is lost; otherwise it
// sleeps until the next retry or lease is due (at most a minute), or a second while it cannot listen.
import { Alarm, ChannelListener } from '../db/listen.ts';
import type { Logger } from 'pino';
import type { Db } from '../db/pool.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { SecretBox } from '../security/crypto.ts';
import { userFetchFor } from '../security/ssrf.ts';
import { claimDeliveries, markFailed, markProcessed, msUntilNextDue, purgeInbound } from './deliveries.ts';
import type { ProcessDeps } from './process.ts';
import { INBOUND_CHANNEL } from './receive.ts';

/** Without a listening connection, the loop looks this often (a notification may have been missed). */
const MAX_SLEEP_MS = 1000;
/**
 * While listening, a stored delivery wakes the loop and a retry's or a lease's due time is known, so
 * an idle loop looks only this often: looking every second kept ~8 MB more of an idle process resident
 * (`npm run bench:footprint`).
 */
const LISTENING_MAX_SLEEP_MS = 60_000;
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
  const loop = new InboundLoop(deps, { db: deps.db, box: deps.box, networks: deps.networks, userFetch });
  const done = loop.run().catch((error: unknown) => deps.logger.error({ err: error }, 'the inbound processor stopped on an error'));
  const purge = setInterval(() => {
    purgeInbound(deps.db).catch((error: unknown) => deps.logger.warn({ err: error }, 'old inbound deliveries could not be removed'));
  }, PURGE_INTERVAL_MS);
  purge.unref();
  return {
    async stop() {
      clearInterval(purge);
      loop.stop();
      await done;
    },
  };
}

class InboundLoop {
  private readonly deps: InboundWorkerDeps;
  private readonly process: ProcessDeps;
  private readonly listener: ChannelListener;
  private readonly alarm = new Alarm();
  private stopping = false;

  constructor(deps: InboundWorkerDeps, process: ProcessDeps) {
    this.deps = deps;
    this.process = process;
    this.listener = new ChannelListener(deps.db, INBOUND_CHANNEL, () => this.ring(), deps.logger, 'inbound processor');
  }

  async run(): Promise<void> {
    while (!this.stopping) {
      await this.listener.listen();
      const claimed = await claimDeliveries(this.deps.db, BATCH).catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'inbound deliveries could not be claimed; trying again');
        return [];
      });
      for (const delivery of claimed) {
        if (this.stopping) break; // an unprocessed claim is taken again when its lease lapses
        await this.handle(delivery);
      }
      if (claimed.length < BATCH) await this.sleep(await this.untilNextDue());
    }
    this.listener.close();
  }

  stop(): void {
    this.stopping = true;
    this.ring();
  }

  private async handle(delivery: Awaited<ReturnType<typeof claimDeliveries>>[number]): Promise<void> {
    try {
      // Loaded with the first delivery: a Crier that receives none does not carry it.
      const { processDelivery } = await import('./process.ts');
      const { items } = await processDelivery(this.process, delivery);
      await markProcessed(this.deps.db, delivery.id);
      this.deps.logger.debug({ deliveryId: delivery.id, items }, 'inbound delivery processed');
    } catch (error) {
      this.deps.logger.warn({ err: error, deliveryId: delivery.id, attempt: delivery.attempts }, 'inbound delivery processing failed; it will be tried again');
      await markFailed(this.deps.db, delivery.id, delivery.attempts, (error as Error).message).catch(() => undefined);
    }
  }

  private async untilNextDue(): Promise<number> {
    const cap = this.listener.connection ? LISTENING_MAX_SLEEP_MS : MAX_SLEEP_MS;
    try {
      const ms = await msUntilNextDue(this.deps.db);
      return ms === undefined ? cap : Math.min(cap, Math.max(10, ms));
    } catch {
      return MAX_SLEEP_MS;
    }
  }

  private ring(): void {
    this.alarm.ring();
  }

  private sleep(ms: number): Promise<void> {
    return this.alarm.sleep(ms);
  }

}
