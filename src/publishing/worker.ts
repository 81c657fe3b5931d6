// The publishing worker: pg-boss hands it one job per destination; heartbeats let another worker take
// over the job of one that died, and the attempt fence makes that takeover safe.
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { mediaContext } from '../media/context.ts';
import { createMediaFetcher } from '../media/fetch.ts';
import { createVideoProcessor } from '../media/renditions.ts';
import { createAdapters, createOAuthProviders } from '../networks/registry.ts';
import type { NetworkAdapter, NetworkId } from '../networks/types.ts';
import type { Boss } from '../queue/boss.ts';
import { PUBLISH_QUEUE, type PublishJob } from '../queue/queues.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createGuardedClient, guardedFetch } from '../security/ssrf.ts';
import { runPublishJob, type EngineDeps } from './run-target.ts';

export interface PublishingWorker {
  stop(): Promise<void>;
}

export async function startPublishingWorker(
  config: Config,
  deps: { db: Db; boss: Boss; box: SecretBox; logger: Logger; adapters?: Partial<Record<NetworkId, NetworkAdapter>> },
): Promise<PublishingWorker> {
  const guarded = createGuardedClient({
    allowLoopback: config.allowLoopbackFetch,
    ca: config.extraCaFile ? readFileSync(config.extraCaFile) : undefined,
    maxBytes: 512 * 1024 * 1024,
    timeoutMs: 120_000,
  });
  const fetchMedia = createMediaFetcher(guarded, mediaContext(config, deps.db, deps.box));
  const engine: EngineDeps = {
    db: deps.db,
    boss: deps.boss,
    box: deps.box,
    adapters: deps.adapters ?? createAdapters(config),
    fetchMedia,
    userFetch: guardedFetch(guarded),
    oauthProviders: createOAuthProviders(config),
    prepareMedia: createVideoProcessor(config, deps.db, fetchMedia),
    logger: deps.logger,
    maxAttempts: config.publishing.maxAttempts,
    retryBaseMs: config.publishing.retryBaseMs,
    // The same span after which pg-boss gives a silent worker's job to another.
    leaseSeconds: config.publishing.heartbeatSeconds,
  };
  const workerId = await deps.boss.work<PublishJob>(
    PUBLISH_QUEUE,
    {
      batchSize: 1,
      localConcurrency: config.publishing.concurrency,
      pollingIntervalSeconds: 0.5,
      // Without this each slot waits the polling interval after every job (2 jobs/s per slot); with a
      // backlog of due jobs it fetches again at once until the queue is drained.
      burstWhenReadyExceeds: 1,
    },
    async ([job]) => {
      await runPublishJob(engine, job!.data, job!.id);
    },
  );
  return {
    async stop() {
      await deps.boss.offWork(PUBLISH_QUEUE, { id: workerId, wait: true });
      await guarded.close();
    },
  };
}
