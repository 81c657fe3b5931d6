// Starting Crier: database, secret key, migrations, the API, the default organization, then the worker.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { locateDatabase } from './db/database.ts';
import { migrateAll } from './db/migrate.ts';
import { createPool, type Db } from './db/pool.ts';
import { buildApp } from './http/app.ts';
import { createNetworkRegistry, type NetworkRegistry } from './networks/registry.ts';
import type { SandboxControls } from './sandbox/contract.ts';
import { sandboxInboxUrl } from './sandbox/inbox.ts';
import { purgeExpiredIdempotencyKeys } from './idempotency/keys.ts';
import { ensureDefaultOrg, type DefaultOrg } from './orgs/orgs.ts';
import type { SecretBox } from './security/crypto.ts';
import { openSecretBox } from './security/secret-key.ts';
import { startPublishingWorker } from './publishing/worker.ts';
import { createPublishWaker } from './publishing/wake.ts';
import { startMediaMaintenance } from './media/maintenance.ts';
import { startTokenRefresh } from './accounts/token-refresh.ts';
import { startWebhookDeliverer } from './webhooks/worker.ts';
import { startImportRunner } from './engagement/import-worker.ts';
import { occurrenceFetchPolicy, startRecurrenceRunner } from './recurrences/runner.ts';
import { startEvergreenRunner } from './evergreen/runner.ts';
import { startBulkImportRunner } from './posts/bulk-runner.ts';
import { userFetchFor } from './security/ssrf.ts';
import { startInboundWorker } from './inbound/worker.ts';
import { purgeExpiredEvents } from './webhooks/retention.ts';
import { foldPostCounts } from './posts/totals.ts';
import { every, type Scheduled } from './background/schedule.ts';

export interface Roles {
  api: boolean;
  worker: boolean;
}

/** What is ready before the worker takes its first job. */
export interface Ready {
  db: Db;
  box: SecretBox;
  /** The default organization (the first one). */
  orgId: number;
}

export interface StartOptions {
  /**
   * Runs once the database, the default organization and the API are up, before the worker takes
   * any job: the sandbox reconnects its accounts to fresh emulators here, so that jobs already due
   * are never published to accounts that are not connected yet.
   */
  beforeWork?: (ready: Ready) => Promise<void>;
  /** The running sandbox's emulators, for the API's sandbox routes (`crier start --sandbox`). */
  sandbox?: SandboxControls;
}

export interface Running {
  url: string | undefined;
  /** Where the API is reached: its listening address, or the configured public one without an API. */
  baseUrl: string;
  embeddedDatabase: boolean;
  defaultOrg: DefaultOrg;
  db: Db;
  box: SecretBox;
  app: FastifyInstance | undefined;
  close(): Promise<void>;
}

const MAINTENANCE_INTERVAL_MS = 15 * 60 * 1000;

/**
 * Starts what `roles` asks for. A start that fails part-way undoes what it had started, last first:
 * nothing outlives the process (an embedded PostgreSQL left behind would keep the data dir busy).
 */
export async function startCrier(config: Config, logger: Logger, roles: Roles, options: StartOptions = {}): Promise<Running> {
  const started = new Shutdown(logger);
  try {
    return await start(config, logger, roles, options, started);
  } catch (error) {
    await started.run();
    throw error;
  }
}

async function start(config: Config, logger: Logger, roles: Roles, options: StartOptions, started: Shutdown): Promise<Running> {
  const database = await locateDatabase(config, (line) => logger.debug({ component: 'embedded-postgres' }, line));
  started.push(() => database.stop());
  const db = createPool(database.url, config.databasePoolSize);
  started.push(() => db.end());
  // The key is checked against the data before migrating: a wrong key changes nothing.
  const box = await openSecretBox(config, db);
  const applied = await migrateAll(db);
  if (applied.migrations.length || applied.functions.length) logger.info(applied, 'database migrated');

  // The networks' configured sides (OAuth providers, adapters), built once for every part of this process.
  const networks = createNetworkRegistry(config);
  const api = roles.api ? await startApi(config, { db, box, logger, networks }, started, options.sandbox) : undefined;
  // Created once everything that commonly fails (database, key, port) has worked, so the start that
  // creates the default org is one that reaches "ready" and prints its admin key.
  const defaultOrg = await ensureDefaultOrg(db);
  await options.beforeWork?.({ db, box, orgId: defaultOrg.orgId });
  if (roles.worker) await startWorker(config, { db, box, logger, networks }, started);

  return {
    url: api?.url,
    baseUrl: api?.url ?? config.publicBaseUrl,
    embeddedDatabase: database.embedded,
    defaultOrg,
    db,
    box,
    app: api?.app,
    close: () => started.run(),
  };
}

interface Parts {
  db: Db;
  box: SecretBox;
  logger: Logger;
  networks: NetworkRegistry;
}

async function startApi(config: Config, { db, box, logger, networks }: Parts, started: Shutdown, sandbox: SandboxControls | undefined): Promise<{ app: FastifyInstance; url: string | undefined }> {
  const waker = createPublishWaker(db);
  started.push(() => waker.close());
  const app = await buildApp({ config, db, waker, box, networks, ...(sandbox ? { sandbox } : {}) }, logger);
  started.push(() => app.close());
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const url = typeof address === 'object' && address ? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${address.port}` : undefined;
  return { app, url };
}

/** Publishing, webhook delivery, and the periodic maintenance, token refresh and media clean-up. */
async function startWorker(config: Config, { db, box, logger, networks }: Parts, started: Shutdown): Promise<void> {
  const worker = await startPublishingWorker(config, { db, box, logger, networks });
  started.push(() => worker.stop());
  const deliverer = await startWebhookDeliverer(config, { db, box, logger, inboxUrl: sandboxInboxUrl(config) });
  started.push(() => deliverer.stop());
  const userFetch = userFetchFor(config.allowLoopbackFetch);
  const imports = startImportRunner({ db, box, networks, logger, userFetch }, { leaseMs: config.publishing.heartbeatSeconds * 1000 });
  started.push(() => imports.stop());
  const bulkImports = startBulkImportRunner({ db, logger, config, networks }, { leaseMs: config.publishing.heartbeatSeconds * 1000 });
  started.push(() => bulkImports.stop());
  const recurrences = startRecurrenceRunner({ db, logger, fetch: occurrenceFetchPolicy(config) });
  started.push(() => recurrences.stop());
  const evergreen = startEvergreenRunner({ db, logger, fetch: occurrenceFetchPolicy(config) });
  started.push(() => evergreen.stop());
  const inbound = startInboundWorker({ db, box, logger, networks, allowLoopbackFetch: config.allowLoopbackFetch });
  started.push(() => inbound.stop());
  const schedules = [startMaintenance(db, config, logger), startMediaMaintenance(config, db, logger), startTokenRefresh(networks, db, box, logger)];
  started.push(async () => {
    await Promise.all(schedules.map((schedule) => schedule.stop()));
  });
}

/** What a start set up, undone in reverse order (on stop, or when a later step of the start fails). */
class Shutdown {
  private readonly steps: (() => Promise<unknown>)[] = [];
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  push(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  /** Every step runs even when one before it fails: the database must be stopped whatever happened. */
  async run(): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      await step().catch((error: unknown) => this.logger.warn({ err: error }, 'a part of Crier did not stop cleanly'));
    }
  }
}

function startMaintenance(db: Db, config: Config, logger: Logger): Scheduled {
  return every(MAINTENANCE_INTERVAL_MS, 'maintenance', async () => {
    const keys = await purgeExpiredIdempotencyKeys(db);
    const events = await purgeExpiredEvents(db, config.webhooks.retentionDays);
    if (keys || events) logger.info({ idempotencyKeys: keys, events }, 'expired records removed');
    await foldPostCounts(db);
  }, logger);
}
