// A started Crier API with the inbound processor, the Facebook emulator as Instagram, and an org
// whose registered Meta app signs the emulator's webhooks, for tests of /inbound and conversations.
import { randomBytes } from 'node:crypto';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';
import { startInboundWorker, type InboundWorker } from '../../src/inbound/worker.ts';
import { createLogger } from '../../src/log.ts';
import { INSTAGRAM_SCOPES, MESSAGING_SCOPES } from '../../src/networks/instagram/oauth.ts';
import { encodeId } from '../../src/core/ids.ts';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from './harness.ts';
import { until } from './until.ts';

export const APP = { clientId: 'crier-meta-app', clientSecret: 'meta-app-secret-1234', redirectUris: ['http://localhost/cb'] };

export interface InboundStack {
  fb: FacebookEmulator;
  server: TestServer;
  org: TestOrg;
  /** The registered app's record id (GET /v1/social-networks/:id). */
  appId: string;
  /** An Instagram account connected with the messaging scope, and its id on the network. */
  account: TestAccount;
  igId: string;
  startWorker(): InboundWorker;
  /** The org's events (the outbox) in the order they were written. */
  events(types?: string[]): Promise<{ type: string; data: any }[]>;
  /** Waits until the stored deliveries are all processed. */
  settled(): Promise<void>;
  /** One more Instagram account on its own Page (`messaging`: connected with the scope). */
  addInstagram(username: string, messaging: boolean, org?: TestOrg, managedApp?: boolean): Promise<{ account: TestAccount; igId: string }>;
  close(): Promise<void>;
}

export async function startInboundStack(options: { worker?: boolean; env?: Record<string, string> } = {}): Promise<InboundStack> {
  const fb = await startFacebookEmulator();
  fb.addApp(APP);
  const server = await startTestServer({ CRIER_INSTAGRAM_BASE_URL: fb.url, CRIER_ALLOW_LOOPBACK_FETCH: 'true', ...options.env });
  const org = await server.createOrg();
  const registered = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'instagram', client_key: APP.clientId, client_secret: APP.clientSecret } });
  if (registered.status !== 201) throw new Error(`registering the app failed: ${JSON.stringify(registered.body)}`);
  fb.instagramMessaging.subscribe(`${server.url}/inbound/instagram`, APP.clientSecret);
  const workers: InboundWorker[] = [];
  const user = fb.addUser({ pages: [] });

  const stack: InboundStack = {
    fb, server, org, appId: registered.body.data.id, account: undefined as unknown as TestAccount, igId: '',
    startWorker() {
      const worker = startInboundWorker({ db: server.db, box: server.box, logger: createLogger('silent'), networks: server.networks, allowLoopbackFetch: true });
      workers.push(worker);
      return worker;
    },
    async events(types) {
      const { rows } = await server.db.query<{ type: string; data: any }>('SELECT type, data FROM events WHERE org_id = $1 ORDER BY created_at, ctid', [org.orgId]);
      return types ? rows.filter((r) => types.includes(r.type)) : rows;
    },
    async settled() {
      await until(async () => {
        const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inbound_deliveries WHERE processed_at IS NULL');
        return rows[0]!.n === 0 ? true : undefined;
      }, 20_000, 'every inbound delivery processed');
    },
    async addInstagram(username, messaging, owner = org, managedApp = false) {
      const page = fb.addPage(user.id, { instagram: { username } });
      const igId = page.instagram!.id;
      const scopes = messaging ? [...INSTAGRAM_SCOPES, ...MESSAGING_SCOPES] : [...INSTAGRAM_SCOPES];
      const token = fb.issuePageToken(page.id, APP.clientId, scopes);
      const account = await server.addAccount(owner, 'instagram', username, { networkUniqueId: igId, accessToken: token, messaging, managedApp });
      return { account, igId };
    },
    async close() {
      for (const worker of workers) await worker.stop();
      await server.close();
      await fb.close();
    },
  };
  const main = await stack.addInstagram(`brand_${randomBytes(2).toString('hex')}`, true);
  stack.account = main.account;
  stack.igId = main.igId;
  if (options.worker !== false) stack.startWorker();
  return stack;
}

/** A published post of the org on the account, as the publishing engine leaves it (containers 0 and 1 on the network). */
export async function seedPublishedPost(server: TestServer, org: TestOrg, accountRawId: number, platformIds: string[]): Promise<string> {
  const { rows } = await server.db.query<{ id: number }>('INSERT INTO posts (org_id, published_at) VALUES ($1, now()) RETURNING id', [org.orgId]);
  const postId = rows[0]!.id;
  const target = await server.db.query<{ id: number }>(
    `INSERT INTO targets (org_id, post_id, account_id, status, platform_post_id, platform_post_url, published_at)
     VALUES ($1, $2, $3, 'published', $4, $5, now()) RETURNING id`,
    [org.orgId, postId, accountRawId, platformIds[0], `https://www.instagram.com/p/${platformIds[0]}/`],
  );
  for (const [position, platformId] of platformIds.entries()) {
    await server.db.query(
      `INSERT INTO target_parts (target_id, position, org_id, status, platform_id) VALUES ($1, $2, $3, 'published', $4)`,
      [target.rows[0]!.id, position, org.orgId, platformId],
    );
  }
  return encodeId(postId);
}
