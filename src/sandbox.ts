// The sandbox: `crier start --sandbox` runs the network emulators inside Crier, connects a sandbox
// account on X and Bluesky for the default organization, and registers an app on every OAuth
// network with a signed-in emulator user, so a newcomer can publish end to end and try the connect
// flow of any network with no network credentials. Emulators keep their data in memory: a restart
// starts them empty, and the sandbox accounts are connected again (same ids). Crier's own database
// persists between runs (posts, accounts, webhooks); each run gets a key of its own and revokes the
// previous run's.
import { randomBytes } from 'node:crypto';
import { startBlueskyEmulator, type BlueskyEmulator } from '../emulators/bluesky/server.ts';
import { startFacebookEmulator } from '../emulators/facebook/server.ts';
import { startGoogleEmulator } from '../emulators/google/server.ts';
import { startLinkedInEmulator } from '../emulators/linkedin/server.ts';
import { startPinterestEmulator } from '../emulators/pinterest/server.ts';
import { startRedditEmulator } from '../emulators/reddit/server.ts';
import type { OAuthEmulatorApp } from '../emulators/shared/oauth.ts';
import { startThreadsEmulator } from '../emulators/threads/server.ts';
import { startTikTokEmulator } from '../emulators/tiktok/server.ts';
import { startVimeoEmulator } from '../emulators/vimeo/server.ts';
import { startXEmulator, type XEmulator } from '../emulators/x/server.ts';
import { upsertSocialAccount } from './accounts/social-accounts.ts';
import { createApiKey, revokeApiKeysNamed } from './orgs/api-keys.ts';
import { saveSocialNetwork } from './accounts/social-networks.ts';
import type { Db } from './db/pool.ts';
import { encodeId } from './ids.ts';
import { loginWithAppPassword } from './networks/bluesky/connect.ts';
import type { NetworkId } from './networks/types.ts';
import type { SecretBox } from './security/crypto.ts';

/** What the sandbox needs of an OAuth network's emulator: an app, and a user who consents. */
interface OAuthEmulator {
  url: string;
  addApp(app: OAuthEmulatorApp): void;
  signIn(userId: string): void;
  close(): Promise<void>;
}

/** An emulator serves every host of the networks it stands for (facebook's also serves instagram). */
interface SandboxOAuth {
  networks: NetworkId[];
  emulator: OAuthEmulator;
  /** Adds the sandbox user with the emulator's defaults; returns the id signIn() takes. */
  addUser(): string;
}

export interface Sandbox {
  /** Environment overrides that point Crier at the emulators. */
  env: Record<string, string>;
  x: XEmulator;
  bluesky: BlueskyEmulator;
  oauth: SandboxOAuth[];
  close(): Promise<void>;
}

export interface SandboxAccount {
  id: string;
  network: string;
  username: string;
}

const X_USER = { id: '1790000000000000001', username: 'sandbox_x' };
const BLUESKY = { handle: 'sandbox.test', did: 'did:plc:crier2sandbox2account2aa', appPassword: 'sbox-sbox-sbox-sbox' };
const host = '127.0.0.1';

async function startOAuthEmulators(): Promise<SandboxOAuth[]> {
  const [facebook, google, linkedin, threads, tiktok, pinterest, vimeo, reddit] = await Promise.all([
    startFacebookEmulator({ host }), startGoogleEmulator({ host }), startLinkedInEmulator({ host }), startThreadsEmulator({ host }),
    startTikTokEmulator({ host }), startPinterestEmulator({ host }), startVimeoEmulator({ host }), startRedditEmulator({ host }),
  ]);
  return [
    { networks: ['facebook', 'instagram'], emulator: facebook, addUser: () => facebook.addUser().id },
    { networks: ['youtube', 'google_business'], emulator: google, addUser: () => google.addUser().id },
    { networks: ['linkedin'], emulator: linkedin, addUser: () => linkedin.addUser().sub },
    { networks: ['threads'], emulator: threads, addUser: () => threads.addUser().id },
    { networks: ['tiktok'], emulator: tiktok, addUser: () => tiktok.addUser().openId },
    { networks: ['pinterest'], emulator: pinterest, addUser: () => pinterest.addUser().id },
    { networks: ['vimeo'], emulator: vimeo, addUser: () => vimeo.addUser().id },
    { networks: ['reddit'], emulator: reddit, addUser: () => reddit.addUser().id },
  ];
}

export async function startSandbox(): Promise<Sandbox> {
  const [x, bluesky, oauth] = await Promise.all([startXEmulator({ host }), startBlueskyEmulator({ host }), startOAuthEmulators()]);
  const env: Record<string, string> = {
    CRIER_SANDBOX: 'true',
    CRIER_X_API_URL: x.url,
    CRIER_X_AUTHORIZE_URL: `${x.url}/i/oauth2/authorize`,
    CRIER_BLUESKY_SERVICE: bluesky.url,
  };
  for (const { networks, emulator } of oauth) for (const network of networks) env[`CRIER_${network.toUpperCase()}_BASE_URL`] = emulator.url;
  return {
    env,
    x,
    bluesky,
    oauth,
    close: async () => {
      await Promise.all([x.close(), bluesky.close(), ...oauth.map((o) => o.emulator.close())]);
    },
  };
}

/** Connects @sandbox_x (x) and sandbox.test (bluesky) to the org, creating or refreshing them. */
export async function connectSandboxAccounts(db: Db, box: SecretBox, sandbox: Sandbox, orgId: number): Promise<SandboxAccount[]> {
  const token = `sandbox-${randomBytes(16).toString('hex')}`;
  sandbox.x.addUser({ id: X_USER.id, username: X_USER.username, accessToken: token, expiresInSecs: 365 * 86400 });
  const xId = await upsertSocialAccount(db, box, {
    orgId, network: 'x', username: X_USER.username, nickname: 'Sandbox X', networkUniqueId: X_USER.id, sandbox: true, accessToken: token,
  });
  sandbox.bluesky.addAccount({ handle: BLUESKY.handle, did: BLUESKY.did, password: randomBytes(12).toString('hex'), appPasswords: [BLUESKY.appPassword] });
  const session = await loginWithAppPassword(sandbox.bluesky.url, BLUESKY.handle, BLUESKY.appPassword);
  const bskyId = await upsertSocialAccount(db, box, {
    orgId, network: 'bluesky', username: session.handle, nickname: 'Sandbox Bluesky', networkUniqueId: session.did, sandbox: true,
    serviceUrl: session.serviceUrl, credential: BLUESKY.appPassword, accessToken: session.accessJwt, refreshToken: session.refreshJwt,
  });
  return [
    { id: encodeId(xId), network: 'x', username: X_USER.username },
    { id: encodeId(bskyId), network: 'bluesky', username: session.handle },
  ];
}

/**
 * Makes the connect flow of every OAuth network work for the org: an app on each emulator registered
 * as the org's app (POST /v1/social-networks), and a user signed in who consents at once. Returns
 * the networks, in the order of the guide.
 */
export async function prepareSandboxConnects(db: Db, box: SecretBox, sandbox: Sandbox, orgId: number, publicBaseUrl: string): Promise<NetworkId[]> {
  const callback = (network: NetworkId) => `${publicBaseUrl}/oauth/callback/${network}`;
  const secret = () => randomBytes(16).toString('hex');
  const xApp = { clientId: 'sandbox-x', clientSecret: secret() };
  sandbox.x.addApp({ ...xApp, callbackUrls: [callback('x')] });
  sandbox.x.signIn(X_USER.id);
  await saveSocialNetwork(db, box, orgId, { network: 'x', client_key: xApp.clientId, client_secret: xApp.clientSecret });
  const networks: NetworkId[] = ['x'];
  for (const { networks: served, emulator, addUser } of sandbox.oauth) {
    const app = { clientId: `sandbox-${served[0]}`, clientSecret: secret() };
    emulator.addApp({ ...app, redirectUris: served.map(callback) });
    emulator.signIn(addUser());
    for (const network of served) {
      await saveSocialNetwork(db, box, orgId, { network, client_key: app.clientId, client_secret: app.clientSecret });
      networks.push(network);
    }
  }
  return networks;
}

const RUN_KEY_NAME = 'sandbox run';

/**
 * The key printed for this sandbox run. The previous run's key is revoked, so the only sandbox key
 * that works is the one on screen (the admin key of the very first start is a different key, kept).
 */
export async function issueSandboxRunKey(db: Db, orgId: number): Promise<string> {
  await revokeApiKeysNamed(db, orgId, RUN_KEY_NAME);
  return (await createApiKey(db, orgId, RUN_KEY_NAME)).key;
}
