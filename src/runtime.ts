// Starting Crier: database, migrations, first-start bootstrap, then the roles this process runs.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { locateDatabase, type DatabaseLocation } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createPool, type Db } from './db/pool.ts';
import { buildApp } from './http/app.ts';
import { purgeExpiredIdempotencyKeys } from './http/idempotency.ts';
import { bootstrapDefaultOrg } from './orgs/orgs.ts';
import { createBoss, type Boss } from './queue/boss.ts';
import { PUBLISH_QUEUE } from './queue/queues.ts';
import type { SecretBox } from './security/crypto.ts';
import { openSecretBox } from './security/secret-key.ts';
import { startPublishingWorker } from './publishing/worker.ts';
import { startMediaMaintenance } from './media/maintenance.ts';
import { startTokenRefresh } from './accounts/token-refresh.ts';
import { startWebhookDeliverer } from './webhooks/deliverer.ts';
import { purgeExpiredEvents } from './webhooks/retention.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
}

export interface Running {
  url: string | undefined;
  db: Db;
  boss: Boss;
  box: SecretBox;
  /** The admin key created on the first start of an empty database (printed once). */
  firstStartKey: string | undefined;
  app: FastifyInstance | undefined;
  close(): Promise<void>;
}

const MAINTENANCE_INTERVAL_MS = 15 * 60 * 1000;
const QUEUE_STATS_SECONDS = 2;

export async function startCrier(config: Config, logger: Logger, roles: Roles): Promise<Running> {
  const database = await locateDatabase(config, (line) => logger.debug({ component: 'embedded-postgres' }, line));
  const db = createPool(database.url, config.databasePoolSize);
  const applied = await migrate(db, database.url);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  const box = await openSecretBox(config, db);
  const firstOrg = await bootstrapDefaultOrg(db);

  const boss = createBoss(database.url, {
    supervise: roles.worker,
    schedule: roles.worker,
    migrate: false,
    superviseIntervalSeconds: config.publishing.superviseIntervalSeconds,
    // The monitor pass runs the heartbeat sweep and counts each queue's ready jobs; workers read that
    // count (queue cache) to switch to continuous fetching when a backlog is due (burst, worker.ts).
    monitorIntervalSeconds: QUEUE_STATS_SECONDS,
    queueCacheIntervalSeconds: QUEUE_STATS_SECONDS,
  });
  await boss.start();
  // Jobs copy the queue's heartbeat when inserted, so every process applies the configured one.
  await boss.updateQueue(PUBLISH_QUEUE, { heartbeatSeconds: config.publishing.heartbeatSeconds });
  const worker = roles.worker ? await startPublishingWorker(config, { db, boss, box, logger }) : undefined;
  const deliverer = roles.worker ? await startWebhookDeliverer(config, { db, box, logger }) : undefined;

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (roles.api) {
    app = await buildApp({ config, db, boss, box }, logger);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    url = typeof address === 'object' && address ? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${address.port}` : undefined;
  }
  const timers: NodeJS.Timeout[] = [];
  if (roles.worker) timers.push(startMaintenance(db, config, logger));
  if (roles.worker) timers.push(startMediaMaintenance(config, db, logger));
  if (roles.worker) timers.push(startTokenRefresh(config, db, box, logger));

  if (firstOrg) announceFirstStart(firstOrg.apiKey, url ?? config.publicBaseUrl, database);
  // One human line whatever LOG_LEVEL is: operators and scripts wait for it.
  const served = url ? `API ${url}/v1, docs ${url}/docs` : 'no HTTP API in this process';
  process.stdout.write(`Crier is running (${[roles.api && 'api', roles.worker && 'worker'].filter(Boolean).join(' + ')}): ${served}\n`);
  return {
    url,
    db,
    boss,
    box,
    firstStartKey: firstOrg?.apiKey,
    app,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      await app?.close();
      await worker?.stop();
      await deliverer?.stop();
      await boss.stop({ graceful: true, timeout: 10_000 });
      await db.end();
      await database.stop();
    },
  };
}

function startMaintenance(db: Db, config: Config, logger: Logger): NodeJS.Timeout {
  const run = async () => {
    try {
      const keys = await purgeExpiredIdempotencyKeys(db);
      const events = await purgeExpiredEvents(db, config.webhooks.retentionDays);
      if (keys || events) logger.info({ idempotencyKeys: keys, events }, 'expired records removed');
    } catch (error) {
      logger.warn({ err: error }, 'maintenance failed');
    }
  };
  void run();
  return setInterval(run, MAINTENANCE_INTERVAL_MS).unref();
}

/** Printed once, on the first start of an empty database: the only time the admin key is shown. */
function announceFirstStart(apiKey: string, baseUrl: string, database: DatabaseLocation): void {
  process.stdout.write(
    [
      '',
      'Crier is ready. This is the first start, so a default organization was created.',
      '',
      `  Admin API key (shown once, store it now): ${apiKey}`,
      '',
      `  API:   ${baseUrl}/v1`,
      `  Docs:  ${baseUrl}/docs   (OpenAPI: ${baseUrl}/openapi.json)`,
      `  Database: ${database.embedded ? 'embedded PostgreSQL under the data directory' : 'DATABASE_URL'}`,
      '',
      `  Try it: curl -H "Authorization: Bearer ${apiKey}" ${baseUrl}/v1/social-accounts`,
      '',
    ].join('\n') + '\n',
  );
}
