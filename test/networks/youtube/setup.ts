// What the YouTube test files share: the Google emulator as YouTube, Crier (API + worker, media
// behind an HTTPS front) pointed at it with 256 KiB upload chunks, a channel connected through an
// OAuth app, and helpers to upload a video to Crier and post it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/google/server.ts';
import { YOUTUBE_SCOPES } from '../../../src/networks/youtube/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { startMediaPublishing, type MediaHarness } from '../../media/helpers.ts';

export const APP = { clientId: '555-crier.apps.googleusercontent.com', clientSecret: 'GOCSPX-crier', redirectUris: ['http://localhost/cb'] };
export const KIB = 1024;
export const CHUNK = 256 * KIB;
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface YoutubeHarness {
  google: GoogleEmulator;
  h: MediaHarness & { stack: PublishingStack };
  /** A channel connected for `org` (a Google user with a channel and a token for the app). */
  addChannel(org: TestOrg, name: string, extra?: { managedApp?: boolean }): Promise<TestAccount & { channelId: string; userId: string; token: string }>;
  /** POST /v1/posts; the post's id. */
  create(org: TestOrg, body: object): Promise<string>;
  /** Uploads `bytes` to Crier as `filename` and returns its media URL. */
  video(org: TestOrg, bytes: Buffer, filename?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startYoutubeHarness(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<YoutubeHarness> {
  const google = await startGoogleEmulator();
  google.addApp(APP);
  const h = await startMediaPublishing({ CRIER_YOUTUBE_BASE_URL: google.url, CRIER_YOUTUBE_CHUNK_BYTES: String(CHUNK), ...env }, options);
  return {
    google,
    h,
    async addChannel(org, name, extra = {}) {
      const user = google.addUser({ name, channel: { title: name, customUrl: `@${name}` } });
      const token = google.oauth.issue(user.id, APP.clientId, [...YOUTUBE_SCOPES]).accessToken;
      const account = await h.server.addAccount(org, 'youtube', `@${name}`, { networkUniqueId: user.channel!.id, accessToken: token });
      if (extra.managedApp) await h.server.db.query('UPDATE social_accounts SET managed_app = true WHERE id = $1', [account.rawId]);
      return { ...account, channelId: user.channel!.id, userId: user.id, token };
    },
    async create(org, body) {
      const created = await h.server.request('POST', '/v1/posts', { key: org.key, body });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      return created.body.post.id as string;
    },
    async video(org, bytes, filename = 'clip.mp4') {
      return (await h.upload(org, filename, bytes, 'video/mp4')).url as string;
    },
    async close() {
      await h.close();
      await google.close();
    },
  };
}
