// The sandbox: `crier start --sandbox` runs the network emulators inside Crier and connects a sandbox
// account on each for the default organization, so a newcomer can publish end to end with no
// network credentials. Emulators keep their data in memory: a restart starts them empty, and the
// sandbox accounts are connected again (same ids).
import { randomBytes } from 'node:crypto';
import { startBlueskyEmulator, type BlueskyEmulator } from '../emulators/bluesky/server.ts';
import { startXEmulator, type XEmulator } from '../emulators/x/server.ts';
import { upsertSocialAccount } from './accounts/social-accounts.ts';
import type { Db } from './db/pool.ts';
import { encodeId } from './ids.ts';
import { loginWithAppPassword } from './networks/bluesky/connect.ts';
import type { SecretBox } from './security/crypto.ts';

export interface Sandbox {
  /** Environment overrides that point the adapters at the emulators. */
  env: Record<string, string>;
  x: XEmulator;
  bluesky: BlueskyEmulator;
  close(): Promise<void>;
}

export interface SandboxAccount {
  id: string;
  network: string;
  username: string;
}

const X_USER = { id: '1790000000000000001', username: 'sandbox_x' };
const BLUESKY = { handle: 'sandbox.test', did: 'did:plc:crier2sandbox2account2aa', appPassword: 'sbox-sbox-sbox-sbox' };

export async function startSandbox(): Promise<Sandbox> {
  const x = await startXEmulator({ host: '127.0.0.1' });
  const bluesky = await startBlueskyEmulator({ host: '127.0.0.1' });
  return {
    env: { CRIER_X_API_URL: x.url, CRIER_BLUESKY_SERVICE: bluesky.url },
    x,
    bluesky,
    close: async () => {
      await x.close();
      await bluesky.close();
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
