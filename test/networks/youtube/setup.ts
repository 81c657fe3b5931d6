// What the YouTube test files share: the Google emulator as YouTube, Crier (API + worker, media
// behind an HTTPS front) pointed at it with 256 KiB upload chunks, a channel connected through an
// OAuth app, and helpers to upload a video to Crier, post it and read what YouTube received.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/google/server.ts';
import { YOUTUBE_SCOPES } from '../../../src/networks/youtube/oauth.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { decodeId } from '../../../src/core/ids.ts';
import type { PublishingStack } from '../../helpers/publishing.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo, startMediaPublishing, type MediaHarness } from '../../helpers/media.ts';

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

/** What a publishing test does with one channel: post a fresh video, read what YouTube got. */
export function publishingTo(yt: YoutubeHarness, org: TestOrg, channel: TestAccount) {
  let size = 700 * KIB;
  return {
    /** A fresh video, each of its own size so that its hash names it. */
    async freshVideo(): Promise<{ bytes: Buffer; url: string }> {
      size += 8 * KIB;
      const bytes = await paddedVideo(size);
      return { bytes, url: await yt.video(org, bytes) };
    },
    /** Posts a fresh video (the root's text from `containers`, else `body.content`) and waits for the outcome. */
    async videoPost(body: Record<string, unknown>, containers?: { content: string }[]) {
      const { bytes, url } = await this.freshVideo();
      const [root, ...later] = containers ?? [{ content: (body.content as string | undefined) ?? 'A video' }];
      const { content: _content, ...rest } = body;
      const postId = await yt.create(org, { accounts: [channel.id], containers: [{ ...root, media: [{ url, filename: 'clip.mp4' }] }, ...later], ...rest });
      return { bytes, postId, post: await yt.h.stack.waitForPost(org, postId, undefined, 60_000) };
    },
    /** The video YouTube made for a published destination. */
    published(post: any) {
      const destination = post.socialAccounts[0];
      assert.equal(destination.status, 'published', destination.error);
      return yt.google.youtube.videos().find((v) => v.id === destination.platformPostId)!;
    },
    failed(post: any): string {
      assert.equal(post.socialAccounts[0].status, 'failed', JSON.stringify(post.socialAccounts[0]));
      return post.socialAccounts[0].error as string;
    },
    sessionsOpened: () => yt.google.youtube.calls().filter((c) => c.method === 'POST' && c.path === '/upload/youtube/v3/videos').length,
    /** The post's first attempt that ended as a retry: the target's status and due time, the attempt's error. */
    async retryOf(postId: string): Promise<{ status: string; due_at: Date; error: string }> {
      return until(async () => (await yt.h.server.db.query(
        `SELECT t.status, t.due_at, a.error FROM targets t JOIN attempts a ON a.target_id = t.id WHERE t.post_id = $1 AND a.outcome = 'retry'`, [decodeId(postId)],
      )).rows[0], 30_000, 'a retry');
    },
  };
}
