// YouTube's engagement capabilities over real HTTP against the Google emulator, called as the routes
// will call them (an AccountSession, a PublishedPost): deleting a published video, the channel's own
// videos page by page with since/until, comments one tier deep as Reply records (embedded replies, or
// comments.list when a thread has more), answering the video, a comment or a reply, and the video's
// and the channel's figures — each checked in what it returns, in the calls YouTube received in order,
// and in the quota units they cost the project.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type GoogleEmulator, startGoogleEmulator } from '../../../emulators/google/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PartRef, PublishedPost } from '../../../src/core/post.ts';
import { PublishError, PublishWait } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { createYoutubeAdapter } from '../../../src/networks/youtube/adapter.ts';
import { youtube } from '../../../src/networks/youtube/index.ts';
import { YOUTUBE_SCOPES } from '../../../src/networks/youtube/oauth.ts';
import { config } from '../../../src/networks/youtube/settings.ts';
import { createPool } from '../../../src/db/pool.ts';
import { createLedger } from '../../../src/accounts/ledger.ts';
import { createTestDatabase } from '../../helpers/harness.ts';
import { createOrg } from '../../../src/orgs/orgs.ts';

const APP = { clientId: '555-engagement.apps.googleusercontent.com', clientSecret: 'GOCSPX-e', redirectUris: ['http://localhost/cb'] };
const CHUNK = 256 * 1024;

describe('YouTube engagement', () => {
  let google: GoogleEmulator;
  let caps: NetworkCapabilities;
  let ada: { channelId: string; userId: string; session: AccountSession };
  let mark = 0;

  const sessionOf = (channelId: string, token: string | null): AccountSession => ({
    account: { id: 1, orgId: 1, network: 'youtube', username: '@ada', networkUniqueId: channelId, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  });
  const channel = (name: string) => {
    const user = google.addUser({ name, channel: { title: name, customUrl: `@${name}` } });
    const token = google.oauth.issue(user.id, APP.clientId, [...YOUTUBE_SCOPES]).accessToken;
    return { channelId: user.channel!.id, userId: user.id, token, session: sessionOf(user.channel!.id, token) };
  };
  const settings = () => config.read({ optionalUrl: () => google.url, integer: (_n: string, d: number) => d, text: () => undefined } as never);

  before(async () => {
    google = await startGoogleEmulator();
    google.addApp(APP);
    google.youtube.setProcessingPolls(0);
    ada = channel('ada');
    caps = youtube.capabilities!({ settings: settings(), allowLoopbackFetch: true, publicBaseUrl: 'http://localhost' });
  });
  after(() => google.close());
  beforeEach(() => {
    mark = google.youtube.calls().length;
  });
  /** YouTube's calls since the test began, "METHOD path?query" (sorted keys, pageToken shown as <token>). */
  const received = () => google.youtube.calls().slice(mark).map((c) => {
    const entries = Object.entries(c.query).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, k === 'pageToken' ? '<token>' : v!]);
    const query = new URLSearchParams(entries).toString();
    return `${c.method} ${c.path}${query ? `?${query}` : ''}`;
  });
  let units = 0;
  /** Quota units spent by the project since the last look. */
  const spent = () => {
    const now = google.youtube.quotaUsed(APP.clientId);
    const delta = now - units;
    units = now;
    return delta;
  };

  /** A video published through the adapter, as the engine drives it: its PublishedPost. */
  async function publish(text: string): Promise<PublishedPost> {
    const bytes = Buffer.alloc(CHUNK + 1000, 7);
    const input: PublishInput = {
      account: ada.session.account,
      containers: [{ content: text, media: [{ url: 'https://media.example/v.mp4', filename: 'v.mp4' }] }],
      block: {},
      fetchMedia: () => { throw new Error('the adapter reads ranges'); },
      openMedia: async () => ({ size: bytes.length, contentType: 'video/mp4', read: (r) => Readable.from([r ? bytes.subarray(r.start, r.end + 1) : bytes]), bytes: async () => bytes }),
      userFetch: fetch,
      saveTokens: async () => {},
      ledger: { withPool: () => { throw new Error('not managed'); }, read: () => { throw new Error('not managed'); } },
    };
    const adapter = createYoutubeAdapter({ apiUrl: google.url, settings: { ...settings(), chunkBytes: CHUNK }, pollMs: 1 });
    for (let step = 0; step < 30; step++) {
      try {
        const root: PartRef = await (await adapter.prepare(input)).publishPart(0, { startedAt: new Date().toISOString() }, undefined);
        return { root, parts: [root], block: {} };
      } catch (error) {
        if (!(error instanceof PublishWait)) throw error;
        input.checkpoint = error.checkpoint!;
      }
    }
    throw new Error('never published');
  }
  const seeded = (channelId: string, title: string, extra: { description?: string; publishedAt?: string; privacyStatus?: string } = {}): PublishedPost => {
    const id = google.youtube.addVideo(channelId, { title, ...extra });
    const root = { platformId: id, url: `https://www.youtube.com/watch?v=${id}` };
    return { root, parts: [root], block: {} };
  };

  describe('remove', () => {
    it('deletes a published video (videos.delete, 50 units); a second delete finds it absent', async () => {
      const post = await publish('To delete');
      mark = google.youtube.calls().length;
      spent();
      assert.equal(await caps.remove!(ada.session, post), 'removed');
      assert.equal(google.youtube.videos().find((v) => v.id === post.root.platformId)!.deleted, true);
      assert.equal(await caps.remove!(ada.session, post), 'absent');
      assert.deepEqual(received(), [`DELETE /youtube/v3/videos?id=${post.root.platformId}`, `DELETE /youtube/v3/videos?id=${post.root.platformId}`]);
      assert.deepEqual(google.youtube.calls().slice(mark).map((c) => c.status), [204, 404]);
      assert.equal(spent(), 100, 'Google charges the refused call too');
    });

    it('another channel\'s video is forbidden; an upload-only token lacks the scope; a refused token is an auth failure', async () => {
      const bob = channel('bob_rm');
      const theirs = seeded(bob.channelId, 'Theirs');
      await assert.rejects(caps.remove!(ada.session, theirs), (e: unknown) => e instanceof PublishError && e.kind === 'permanent' && e.code === 'forbidden');
      const uploadOnly = google.oauth.issue(bob.userId, APP.clientId, ['https://www.googleapis.com/auth/youtube.upload']).accessToken;
      await assert.rejects(caps.remove!(sessionOf(bob.channelId, uploadOnly), theirs), (e: unknown) => e instanceof PublishError && e.code === 'forbidden' && /insufficientPermissions/.test(e.message));
      await assert.rejects(caps.remove!(sessionOf(bob.channelId, 'ya29.unknown'), theirs), (e: unknown) => e instanceof PublishError && e.kind === 'auth');
      await assert.rejects(caps.remove!(sessionOf(bob.channelId, null), theirs), (e: unknown) => e instanceof PublishError && e.kind === 'auth');
      assert.equal(google.youtube.videos().find((v) => v.id === theirs.root.platformId)!.deleted, false);
    });

    it('the project\'s quota spent: retry at the Pacific midnight', async () => {
      const post = seeded(ada.channelId, 'Quota');
      google.youtube.setQuota({ dailyUnits: google.youtube.quotaUsed(APP.clientId) + 10 });
      try {
        await assert.rejects(caps.remove!(ada.session, post), (e: unknown) =>
          e instanceof PublishError && e.kind === 'retryable' && e.code === 'quota' && e.retryAfterMs! > 0 && e.retryAfterMs! <= 25 * 3600_000);
      } finally {
        google.youtube.setQuota({ dailyUnits: 10_000_000 });
      }
    });
  });

  describe('own posts', () => {
    it('reads the uploads playlist from channels.list, then pages playlistItems newest first (50 a page)', async () => {
      const own = channel('carol_own');
      const start = Date.parse('2026-01-01T00:00:00Z');
      const ids = Array.from({ length: 60 }, (_, i) => seeded(own.channelId, `Video ${i}`, { description: `Text ${i}`, publishedAt: new Date(start + i * 3600_000).toISOString() }).root.platformId);
      seeded(ada.channelId, 'Not carol\'s');
      mark = google.youtube.calls().length;
      spent();
      const first = await caps.ownPosts!(own.session, {});
      assert.equal(first.items.length, 50);
      assert.deepEqual(first.items[0], {
        platformId: ids[59], url: `https://www.youtube.com/watch?v=${ids[59]}`, text: 'Text 59', createdAt: new Date(start + 59 * 3600_000).toISOString(), mediaCount: 1,
        ref: { title: 'Video 59', privacyStatus: 'public' },
      });
      assert.ok(first.next);
      const second = await caps.ownPosts!(own.session, { cursor: first.next });
      assert.deepEqual(second.items.map((p) => p.platformId), ids.slice(0, 10).reverse());
      assert.equal(second.next, undefined);
      const uploads = `UU${own.channelId.slice(2)}`;
      assert.deepEqual(received(), [
        'GET /youtube/v3/channels?mine=true&part=contentDetails',
        `GET /youtube/v3/playlistItems?maxResults=50&part=snippet%2CcontentDetails%2Cstatus&playlistId=${uploads}`,
        'GET /youtube/v3/channels?mine=true&part=contentDetails',
        `GET /youtube/v3/playlistItems?maxResults=50&pageToken=%3Ctoken%3E&part=snippet%2CcontentDetails%2Cstatus&playlistId=${uploads}`,
      ]);
      assert.equal(spent(), 4, 'channels.list and playlistItems.list, 1 unit each, per page');
    });

    it('since/until: newer videos dropped, and a video older than since ends the listing', async () => {
      const own = channel('dave_own');
      const start = Date.parse('2026-02-01T00:00:00Z');
      for (let i = 0; i < 60; i++) seeded(own.channelId, `V${i}`, { description: `T${i}`, publishedAt: new Date(start + i * 60_000).toISOString() });
      const page = await caps.ownPosts!(own.session, { since: new Date(start + 20 * 60_000), until: new Date(start + 55 * 60_000) });
      assert.deepEqual(page.items.map((p) => p.text), Array.from({ length: 36 }, (_, i) => `T${55 - i}`));
      assert.equal(page.next, undefined, 'T19 and older on this page: nothing further');
    });

    it('a bogus cursor is YouTube\'s 400; an empty one is refused before any call', async () => {
      await assert.rejects(caps.ownPosts!(ada.session, { cursor: 'not-a-token' }), (e: unknown) => e instanceof PublishError && e.code === 'invalid' && /invalidPageToken/.test(e.message));
      mark = google.youtube.calls().length;
      await assert.rejects(caps.ownPosts!(ada.session, { cursor: '' }), (e: unknown) => e instanceof PublishError && e.code === 'invalid');
      assert.deepEqual(received(), []);
    });
  });

  describe('comments', () => {
    it('lists threads as Reply records (§1.1), with their replies one tier deep only when asked', async () => {
      const post = seeded(ada.channelId, 'Talked about');
      const viewer = 'UCviewer0000000000000001';
      const top = google.youtube.addComment(post.root.platformId, { text: 'Great video', authorChannelId: viewer, authorDisplayName: '@viewer', likeCount: 4 });
      google.clock.advance(1000);
      const answer = google.youtube.addComment(post.root.platformId, { text: '@viewer thanks!', authorChannelId: ada.channelId, authorDisplayName: '@ada', parentId: top });
      google.clock.advance(1000);
      const later = google.youtube.addComment(post.root.platformId, { text: 'Old-style name', authorChannelId: 'UCnohandle00000000000001', authorDisplayName: 'Jane Doe' });
      mark = google.youtube.calls().length;
      spent();

      const flat = await caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false });
      assert.deepEqual(flat.items.map((r) => r.id), [later, top], 'newest first; the reply is not a thread');
      assert.ok(flat.items.every((r) => !('replies' in r)));
      const viewerReply = flat.items[1]!;
      assert.deepEqual(viewerReply, {
        id: top, author: viewer, author_name: '@viewer', author_username: '@viewer', author_avatar_url: `https://yt3.ggpht.example/${viewer}=s48-c-k-c0x00ffffff-no-rj`,
        author_profile_url: 'http://www.youtube.com/@viewer', text: 'Great video', created_at: viewerReply.created_at, like_count: 4,
        platform_specific: { updated_at: viewerReply.created_at, total_reply_count: 1 },
      });
      assert.equal(flat.items[0]!.author_username, undefined, 'a name without @ is no handle');
      assert.equal(flat.next, undefined);

      const nested = await caps.comments!.list(ada.session, post, { includeReplies: true, resolveAuthorNames: false });
      assert.deepEqual(nested.items.map((r) => [r.id, r.replies!.map((a) => [a.id, a.text, a.author, a.platform_specific!.parent_id])]), [
        [later, []],
        [top, [[answer, '@viewer thanks!', ada.channelId, top]]],
      ]);
      const videoId = post.root.platformId;
      assert.deepEqual(received(), [
        `GET /youtube/v3/commentThreads?maxResults=100&order=time&part=snippet&textFormat=plainText&videoId=${videoId}`,
        `GET /youtube/v3/commentThreads?maxResults=100&order=time&part=snippet%2Creplies&textFormat=plainText&videoId=${videoId}`,
      ], 'replies came embedded: no comments.list');
      assert.equal(spent(), 2);
    });

    it('a thread with more replies than it embeds: comments.list?parentId= reads them all, oldest first', async () => {
      const post = seeded(ada.channelId, 'Busy thread');
      const top = google.youtube.addComment(post.root.platformId, { text: 'Question' });
      const answers: string[] = [];
      for (let i = 0; i < 7; i++) {
        google.clock.advance(1000);
        answers.push(google.youtube.addComment(post.root.platformId, { text: `answer ${i}`, parentId: top }));
      }
      mark = google.youtube.calls().length;
      const page = await caps.comments!.list(ada.session, post, { includeReplies: true, resolveAuthorNames: false });
      assert.deepEqual(page.items[0]!.replies!.map((r) => r.id), answers);
      assert.deepEqual(received().slice(1), [`GET /youtube/v3/comments?maxResults=100&parentId=${top}&part=snippet&textFormat=plainText`]);
    });

    it('pages with YouTube\'s pageToken', async () => {
      const post = seeded(ada.channelId, 'Popular');
      for (let i = 0; i < 130; i++) google.youtube.addComment(post.root.platformId, { text: `c${i}` });
      const first = await caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false });
      assert.equal(first.items.length, 100);
      assert.equal(first.items[0]!.text, 'c129');
      const second = await caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, cursor: first.next });
      assert.deepEqual(second.items.map((r) => r.text), Array.from({ length: 30 }, (_, i) => `c${29 - i}`));
      assert.equal(second.next, undefined);
    });

    it('answers the video (commentThreads.insert), a comment (comments.insert) and a reply (under its thread)', async () => {
      const post = seeded(ada.channelId, 'Answered');
      const top = google.youtube.addComment(post.root.platformId, { text: 'Q?', authorDisplayName: '@asker' });
      const theirReply = google.youtube.addComment(post.root.platformId, { text: 'me too', parentId: top });
      mark = google.youtube.calls().length;
      spent();
      const comment = await caps.comments!.reply(ada.session, post, 'A note from us');
      const answer = await caps.comments!.reply(ada.session, post, 'An answer', top);
      const toReply = await caps.comments!.reply(ada.session, post, '@someone yes', theirReply);
      const stored = google.youtube.comments(post.root.platformId);
      assert.deepEqual(stored.map((c) => [c.commentId, c.textOriginal, c.parentId]), [
        [top, 'Q?', null], [theirReply, 'me too', top], [comment.replyId, 'A note from us', null], [answer.replyId, 'An answer', top], [toReply.replyId, '@someone yes', top],
      ]);
      assert.ok(stored.slice(2).every((c) => c.authorChannelId === ada.channelId));
      assert.deepEqual(received(), [
        'POST /youtube/v3/commentThreads?part=snippet',
        `GET /youtube/v3/comments?id=${encodeURIComponent(top)}&part=snippet&textFormat=plainText`,
        'POST /youtube/v3/comments?part=snippet',
        `GET /youtube/v3/comments?id=${encodeURIComponent(theirReply)}&part=snippet&textFormat=plainText`,
        'POST /youtube/v3/comments?part=snippet',
      ]);
      assert.equal(spent(), 50 + 1 + 50 + 1 + 50);
    });

    it('an unknown comment, or one of another video, is not_found; bad ids and empty text are refused before any call', async () => {
      const post = seeded(ada.channelId, 'Strict');
      const other = seeded(ada.channelId, 'Other');
      const elsewhere = google.youtube.addComment(other.root.platformId, { text: 'elsewhere' });
      for (const parent of ['UgNoSuchComment', elsewhere]) {
        await assert.rejects(caps.comments!.reply(ada.session, post, 'hi', parent), (e: unknown) => e instanceof PublishError && e.code === 'not_found', parent);
      }
      mark = google.youtube.calls().length;
      await assert.rejects(caps.comments!.reply(ada.session, post, 'hi', 'a&id=b'), (e: unknown) => e instanceof PublishError && e.code === 'invalid');
      await assert.rejects(caps.comments!.reply(ada.session, post, '  '), (e: unknown) => e instanceof PublishError && e.code === 'invalid');
      assert.deepEqual(received(), []);
    });

    it('a deleted video\'s comments are not_found', async () => {
      const post = seeded(ada.channelId, 'Gone');
      await caps.remove!(ada.session, post);
      await assert.rejects(caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false }), (e: unknown) =>
        e instanceof PublishError && e.code === 'not_found' && /videoNotFound/.test(e.message));
    });
  });

  describe('analytics', () => {
    it('a video: viewCount, likeCount, commentCount; favoriteCount kept under its name; the rest null', async () => {
      const post = seeded(ada.channelId, 'Counted');
      google.youtube.addComment(post.root.platformId, { text: 'one' });
      const top = google.youtube.addComment(post.root.platformId, { text: 'two' });
      google.youtube.addComment(post.root.platformId, { text: 'three', parentId: top });
      google.youtube.setVideoStats(post.root.platformId, { viewCount: 1234, likeCount: 56 });
      mark = google.youtube.calls().length;
      spent();
      assert.deepEqual(await caps.analytics!.post!(ada.session, post), {
        likes: 56, comments: 3, shares: null, views: 1234, reach: null, saves: null, impressions: null, platform_specific: { favoriteCount: 0 },
      });
      assert.deepEqual(received(), [`GET /youtube/v3/videos?id=${post.root.platformId}&part=statistics`]);
      assert.equal(spent(), 1);
      await caps.remove!(ada.session, post);
      await assert.rejects(caps.analytics!.post!(ada.session, post), (e: unknown) => e instanceof PublishError && e.code === 'not_found');
    });

    it('the channel: subscribers, videos, views; a hidden subscriber count is null; never ranged', async () => {
      const own = channel('erin_stats');
      const a = seeded(own.channelId, 'A');
      seeded(own.channelId, 'B');
      google.youtube.setVideoStats(a.root.platformId, { viewCount: 900 });
      google.youtube.setSubscribers(own.channelId, 4200);
      mark = google.youtube.calls().length;
      const period = { since: new Date(Date.now() - 30 * 86_400_000), until: new Date() };
      assert.deepEqual(await caps.analytics!.account!(own.session, period), {
        followers: 4200, following: null, posts: 2, engagement: null, ranged: false, platform_specific: { viewCount: 900, hiddenSubscriberCount: false },
      });
      assert.deepEqual(received(), ['GET /youtube/v3/channels?mine=true&part=statistics']);
      google.youtube.setSubscribers(own.channelId, 4200, true);
      const hidden = await caps.analytics!.account!(own.session, period);
      assert.equal(hidden.followers, null);
      assert.equal(hidden.platform_specific.hiddenSubscriberCount, true);
    });
  });

  describe('the managed key', () => {
    it('an account on the operator\'s key has each call\'s units charged to the shared pool; an org\'s own key is not counted', async () => {
      const db = createPool(await createTestDatabase(), 2);
      try {
        const ledger = createLedger(db, 'youtube');
        const pooled = async () => Number((await db.query("SELECT coalesce(sum(units), 0) AS units FROM network_ledger WHERE network = 'youtube' AND pool = 'uploads'")).rows[0].units);
        const org = await createOrg(db, 'pooled org');
        const own = channel('pooled');
        const account = { ...own.session.account, orgId: org.orgId };
        const managed: AccountSession = { ...own.session, account: { ...account, managedApp: true }, ledger };
        spent();
        await caps.analytics!.account!(managed, { since: new Date(Date.now() - 86_400_000), until: new Date() });
        await caps.ownPosts!(managed, {});
        const cost = spent();
        assert.equal(cost, 3, 'channels.list twice and playlistItems.list once');
        assert.equal(await pooled(), cost, 'what Google counted is what the pool counted');
        await caps.analytics!.account!({ ...own.session, account, ledger }, { since: new Date(Date.now() - 86_400_000), until: new Date() });
        assert.equal(await pooled(), cost, 'the org\'s own app spends its own quota: the shared pool is untouched');
      } finally {
        await db.end();
      }
    });
  });
});
