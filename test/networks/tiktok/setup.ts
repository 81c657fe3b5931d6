// What the TikTok tests share: the TikTok emulator, Crier behind its HTTPS front (PUBLIC_BASE_URL is
// the front, so the photo URLs Crier hands TikTok are real HTTPS URLs the emulator downloads, from a
// prefix verified for the app), creators connected as accounts, and posts created and awaited.
import assert from 'node:assert/strict';
import { startTikTokEmulator, type TikTokEmulator, type TikTokEmulatorOptions } from '../../../emulators/tiktok/server.ts';
import type { CreatorSettings } from '../../../emulators/tiktok/publishing.ts';
import { TIKTOK_SCOPES } from '../../../src/networks/tiktok/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

export const APP = { clientId: 'crier-tiktok', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
export const MB = 1024 * 1024;

export interface Creator extends TestAccount {
  openId: string;
  token: string;
}

export interface TikTokStack {
  tt: TikTokEmulator;
  h: MediaHarness & { stack: PublishingStack };
  org: TestOrg;
  addCreator(username: string, creator?: Partial<CreatorSettings>, org?: TestOrg): Promise<Creator>;
  /** POST /v1/posts for `account`; the new post's id. */
  create(account: Creator, body: object, org?: TestOrg): Promise<string>;
  /** Creates and waits until the destination is terminal; the post as GET /v1/posts/:id shows it. */
  publish(account: Creator, body: object, org?: TestOrg): Promise<any>;
  /** Crier's media URL of an uploaded file. */
  upload(filename: string, bytes: Buffer, contentType: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * `worker`: a worker in this process (TikTok's per-account quota is off: tests post more than 6 a
 * minute with one creator); false: the test starts `crier worker` processes itself.
 */
export async function startTikTokStack(options: TikTokEmulatorOptions & { worker?: boolean; env?: Record<string, string> } = {}): Promise<TikTokStack> {
  const tt = await startTikTokEmulator({ processingPolls: 1, ...options });
  tt.addApp(APP);
  const h = await startMediaPublishing({
    CRIER_TIKTOK_BASE_URL: tt.url, CRIER_TIKTOK_STATUS_POLL_MS: '100', CRIER_ACCOUNT_QUOTAS: 'tiktok=off', ...options.env,
  }, { worker: false });
  tt.setVerifiedPrefixes([`${h.front.url}/`]);
  tt.trustCa(h.front.ca);
  if (options.worker !== false) await h.stack.startWorker();
  const org = await h.server.createOrg();

  const stack: TikTokStack = {
    tt, h, org,
    async addCreator(username, creator, inOrg = org) {
      const user = tt.addUser({ username, ...(creator ? { creator } : {}) });
      const token = tt.oauth.issue(user.openId, APP.clientId, TIKTOK_SCOPES).accessToken;
      const account = await h.server.addAccount(inOrg, 'tiktok', username, { networkUniqueId: user.openId, accessToken: token });
      return { ...account, openId: user.openId, token };
    },
    async create(account, body, inOrg = org) {
      const created = await h.server.request('POST', '/v1/posts', { key: inOrg.key, body: { accounts: [account.id], ...body } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return created.body.post.id as string;
    },
    async publish(account, body, inOrg = org) {
      return h.stack.waitForPost(inOrg, await stack.create(account, body, inOrg), undefined, 60_000);
    },
    async upload(filename, bytes, contentType) {
      return (await h.upload(org, filename, bytes, contentType)).url as string;
    },
    async close() {
      await h.close();
      await tt.close();
    },
  };
  return stack;
}
