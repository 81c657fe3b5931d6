// The whole publishing path for tests: Crier's API and a worker on a real database, the X and
// Bluesky emulators as the networks, and a local HTTPS server for media URLs.
import { randomBytes } from 'node:crypto';
import { startBlueskyEmulator, type BlueskyEmulator } from '../../emulators/bluesky/server.ts';
import { startXEmulator, type XEmulator, type XEmulatorOptions } from '../../emulators/x/server.ts';
import { createLogger } from '../../src/log.ts';
import type { NetworkAdapter, NetworkLimits } from '../../src/networks/contract.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import { startPublishingWorker, type PublishingWorker } from '../../src/publishing/worker.ts';
import { startTestServer, TEST_SECRET_KEY_HEX, type TestAccount, type TestOrg, type TestServer } from './harness.ts';
import { startHttpsServer, type TestHttpsServer } from './https-server.ts';

export interface PublishingStack {
  server: TestServer;
  x: XEmulator;
  bsky: BlueskyEmulator;
  media: TestHttpsServer;
  /** The environment a `crier worker` child process needs to reach the same database and networks. */
  env: Record<string, string>;
  /**
   * A worker in this process; `adapters` replaces the networks' own (a test's fake network), `limits`
   * a network's declared limits.
   */
  startWorker(
    adapters?: Partial<Record<NetworkId, NetworkAdapter>>,
    limits?: Partial<Record<NetworkId, NetworkLimits>>,
  ): Promise<{ worker: PublishingWorker; stop(): Promise<void> }>;
  addXAccount(org: TestOrg, username?: string): Promise<TestAccount & { token: string; userId: string }>;
  addBlueskyAccount(org: TestOrg, handle?: string): Promise<TestAccount & { did: string }>;
  /** Polls GET /v1/posts/:id until `done` says so (default: every account terminal). */
  waitForPost(org: TestOrg, postId: string, done?: (post: any) => boolean, timeoutMs?: number): Promise<any>;
  events(orgId: number): Promise<{ type: string; data: any }[]>;
  close(): Promise<void>;
}

export const TERMINAL = ['published', 'failed', 'unknown', 'cancelled'];
export const allTerminal = (post: any) => post.socialAccounts.every((a: any) => TERMINAL.includes(a.status));

/** A valid 1x1 PNG. */
export const PNG_1X1 = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5f0000000049454e44ae426082', 'hex');

export interface StackOptions {
  worker?: boolean;
  /** The X emulator's settings (a test of renditions, not of X's processing, makes it instant). */
  x?: XEmulatorOptions;
}

export async function startPublishingStack(extraEnv: Record<string, string> = {}, options: StackOptions = {}): Promise<PublishingStack> {
  const x = await startXEmulator(options.x);
  const bsky = await startBlueskyEmulator({ rateLimits: false });
  const media = await startHttpsServer();
  media.route('/cat.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG_1X1); });
  const caFile = await media.caFile();
  const env = {
    CRIER_X_API_URL: x.url,
    CRIER_X_AUTHORIZE_URL: `${x.url}/i/oauth2/authorize`,
    CRIER_BLUESKY_SERVICE: bsky.url,
    CRIER_ALLOW_LOOPBACK_FETCH: 'true',
    CRIER_EXTRA_CA_FILE: caFile,
    CRIER_PUBLISH_RETRY_BASE_MS: '300',
    CRIER_PUBLISH_HEARTBEAT_SECONDS: '4',
    CRIER_SUPERVISE_INTERVAL_SECONDS: '1',
    ...extraEnv,
  };
  const server = await startTestServer(env);
  const workers: { stop(): Promise<void> }[] = [];
  let counter = 0;

  const stack: PublishingStack = {
    server,
    x,
    bsky,
    media,
    env: { ...env, DATABASE_URL: server.databaseUrl, CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX, LOG_LEVEL: 'warn' },
    async startWorker(adapters, limits = {}) {
      const networks = { ...server.networks, all: server.networks.all.map((n) => (limits[n.id] ? { ...n, limits: limits[n.id]! } : n)) };
      const worker = await startPublishingWorker(server.config, { db: server.db, box: server.box, logger: createLogger('silent'), networks, ...(adapters ? { adapters } : {}) });
      const handle = { worker, stop: () => worker.stop() };
      workers.push(handle);
      return handle;
    },
    async addXAccount(org, username) {
      counter += 1;
      const name = username ?? `xuser${counter}${randomBytes(2).toString('hex')}`;
      const token = `x-token-${randomBytes(8).toString('hex')}`;
      const user = x.addUser({ username: name, accessToken: token });
      const account = await server.addAccount(org, 'x', name, { networkUniqueId: user.id, accessToken: token });
      return { ...account, token, userId: user.id };
    },
    async addBlueskyAccount(org, handle) {
      counter += 1;
      const name = handle ?? `user${counter}${randomBytes(2).toString('hex')}.test`;
      const { did } = bsky.addAccount({ handle: name, password: 'main-password', appPasswords: ['abcd-efgh-ijkl-mnop'] });
      const res = await server.request('POST', '/v1/social-accounts/bluesky', { key: org.key, body: { handle: name, appPassword: 'abcd-efgh-ijkl-mnop' } });
      if (res.status !== 200) throw new Error(`connect failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.data.id, rawId: 0, network: 'bluesky', username: name, did };
    },
    async waitForPost(org, postId, done = allTerminal, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let post: any;
      while (Date.now() < deadline) {
        post = (await server.request('GET', `/v1/posts/${postId}`, { key: org.key })).body.post;
        if (post && done(post)) return post;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`post ${postId} did not get there in ${timeoutMs} ms: ${JSON.stringify(post)}`);
    },
    async events(orgId) {
      const { rows } = await server.db.query('SELECT type, data FROM events WHERE org_id = $1 ORDER BY created_at, id', [orgId]);
      return rows;
    },
    async close() {
      for (const w of workers) await w.stop();
      await server.close();
      await x.close();
      await bsky.close();
      await media.close();
    },
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}
