// A real Crier API on a real PostgreSQL database of its own, reached over real HTTP.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.ts';
import { NETWORK_LIST, createNetworkRegistry, type NetworkRegistry } from '../../src/networks/registry.ts';
import { ensureDatabase } from '../../src/db/database.ts';
import { createPool, type Db } from '../../src/db/pool.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/log.ts';
import { upsertSocialAccount, type NewSocialAccount } from '../../src/accounts/social-accounts.ts';
import { encodeId } from '../../src/core/ids.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import { createOrg } from '../../src/orgs/orgs.ts';
import { type SubscriptionStatus } from '../../src/orgs/subscription.ts';
import { createPublishWaker } from '../../src/publishing/wake.ts';
import { createSecretBox, type SecretBox } from '../../src/security/crypto.ts';

export interface TestOrg {
  orgId: number;
  key: string;
}

export interface TestAccount {
  id: string;
  rawId: number;
  network: NetworkId;
  username: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  url: string;
  box: SecretBox;
  db: Db;
  databaseUrl: string;
  app: FastifyInstance;
  config: Config;
  /** The networks as this server's app was built with them (runtime.ts builds one per process). */
  networks: NetworkRegistry;
  createOrg(status?: SubscriptionStatus): Promise<TestOrg>;
  addAccount(org: TestOrg, network: NetworkId, username?: string, extra?: Partial<NewSocialAccount>): Promise<TestAccount>;
  request<T = any>(method: string, path: string, options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/** The secret key of every test server of this process; child processes get it as CRIER_SECRET_KEY. */
export const TEST_SECRET_KEY_HEX = randomBytes(32).toString('hex');
const box = createSecretBox(Buffer.from(TEST_SECRET_KEY_HEX, 'hex'));

/** A fresh database cloned from the migrated template (see test/run.ts). */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = process.env.CRIER_TEST_ADMIN_URL;
  const template = process.env.CRIER_TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('run the tests with `npm test` (it provides the database)');
  return ensureDatabase(adminUrl, `crier_t_${randomBytes(6).toString('hex')}`, template);
}

/** `env` overrides the test defaults; a variable set to undefined is left unset (Crier's own default). */
export async function startTestServer(env: Record<string, string | undefined> = {}): Promise<TestServer> {
  const databaseUrl = await createTestDatabase();
  // Window limits far above what any test sends, so only the tests of limits (which pass their own) meet them.
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, CRIER_RATE_LIMIT_FLOOR: '1000000', CRIER_RATE_LIMIT_CEILING: '1000000', ...env }, NETWORK_LIST);
  const db = createPool(databaseUrl, 10);
  const waker = createPublishWaker(db);
  const networks = createNetworkRegistry(config);
  const app = await buildApp({ config, db, waker, box, networks }, createLogger('silent'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  let accountCounter = 0;

  return {
    url,
    box,
    db,
    databaseUrl,
    app,
    config,
    networks,
    async createOrg(status = 'active') {
      const org = await createOrg(db, `org-${randomBytes(3).toString('hex')}`, status);
      return { orgId: org.orgId, key: org.apiKey };
    },
    async addAccount(org, network, username, extra = {}) {
      accountCounter += 1;
      const name = username ?? `${network}_user_${accountCounter}`;
      const rawId = await upsertSocialAccount(db, box, {
        orgId: org.orgId,
        network,
        username: name,
        networkUniqueId: `${network}-${accountCounter}-${randomBytes(3).toString('hex')}`,
        ...extra,
      });
      return { id: encodeId(rawId), rawId, network, username: name };
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const response = await fetch(url + path, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: the test sees the raw text
      }
      return { status: response.status, headers: response.headers, body: parsed as any };
    },
    async close() {
      await app.close();
      await waker.close();
      await db.end();
      const admin = new pg.Client({ connectionString: process.env.CRIER_TEST_ADMIN_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(new URL(databaseUrl).pathname.slice(1))} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Rows of a table for one org, to assert what was (not) stored. */
export async function countRows(db: Db, table: string, orgId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE org_id = $1`, [orgId]);
  return rows[0]!.n;
}
