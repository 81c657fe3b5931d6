// Vimeo's engagement capabilities over real HTTP against the emulator, called as the routes will
// call them (an AccountSession, a PublishedPost): deleting a published video, the member's own
// videos page by page with since/until, comments one tier deep as Reply records and in Vimeo's raw
// shape, answering the video or a comment, and the video's and the member's figures — each checked
// both in what it returns and in what Vimeo received, in order.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator, type VimeoRequestLog } from '../../../emulators/vimeo/server.ts';
import type { AccountSession, NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PartRef, PublishedPost } from '../../../src/core/post.ts';
import { PublishError, PublishWait } from '../../../src/core/errors.ts';
import { vimeo as vimeoNetwork } from '../../../src/networks/vimeo/index.ts';
import { VimeoClient } from '../../../src/networks/vimeo/client.ts';
import { VIMEO_SCOPES } from '../../../src/networks/vimeo/oauth.ts';
import { createVimeoAdapter } from '../../../src/networks/vimeo/adapter.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';

const APP = { clientId: 'crier-vimeo', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

describe('Vimeo engagement', () => {
  let vm: VimeoEmulator;
  let caps: NetworkCapabilities;
  let ada: { id: string; token: string; session: AccountSession };
  let bob: { id: string };
  let mark = 0;

  const sessionOf = (userId: string, token: string | null): AccountSession => ({
    account: { id: 1, orgId: 1, network: 'vimeo', username: 'ada', networkUniqueId: userId, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    saveTokens: async () => {},
    userFetch: fetch,
  });

  before(async () => {
    vm = await startVimeoEmulator();
    vm.addApp(APP);
    vm.setTranscodeReads(0);
    const user = vm.addUser({ name: 'Ada Films', followers: 12, following: 3 });
    const token = vm.oauth.issue(user.id, APP.clientId, VIMEO_SCOPES).accessToken;
    ada = { id: user.id, token, session: sessionOf(user.id, token) };
    bob = vm.addUser({ name: 'Bob Viewer', pictureBase: 'https://i.vimeocdn.com/portrait/42' });
    caps = vimeoNetwork.capabilities!({ settings: { baseUrl: vm.url }, allowLoopbackFetch: true, publicBaseUrl: 'http://localhost' });
  });
  after(() => vm.close());
  beforeEach(() => {
    mark = vm.requests().length;
  });
  /** Vimeo's requests since the test began: "METHOD path?query" (sorted keys). */
  const received = (filter: (r: VimeoRequestLog) => boolean = () => true) => vm.requests().slice(mark).filter(filter).map((r) => {
    const query = new URLSearchParams(Object.entries(r.query).sort(([a], [b]) => a.localeCompare(b)) as [string, string][]).toString();
    return `${r.method} ${r.path}${query ? `?${query}` : ''}`;
  });

  /** A video published through the adapter, as the engine drives it: its PublishedPost. */
  async function publish(title: string, description = `About ${title}`): Promise<PublishedPost> {
    const bytes = Buffer.from(`video ${title}`);
    const input: PublishInput = {
      account: ada.session.account,
      containers: [{ content: description, media: [{ url: 'https://media.example/v.mp4', filename: 'v.mp4' }] }],
      block: { title },
      fetchMedia: () => { throw new Error('the adapter reads ranges'); },
      openMedia: async () => ({ size: bytes.length, contentType: 'video/mp4', read: () => Readable.from([bytes]), bytes: async () => bytes }),
      userFetch: fetch,
      saveTokens: async () => {},
      ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
    };
    const adapter = createVimeoAdapter({ apiUrl: vm.url, pollMs: 1 });
    for (let step = 0; step < 20; step++) {
      try {
        const root: PartRef = await (await adapter.prepare(input)).publishPart(0, { startedAt: new Date().toISOString() }, undefined);
        return { root, parts: [root], block: { title } };
      } catch (error) {
        if (!(error instanceof PublishWait)) throw error;
        input.checkpoint = error.checkpoint!;
      }
    }
    throw new Error('never published');
  }
  const videoOf = (post: PublishedPost) => vm.videos().find((v) => v.id === post.root.platformId)!;

  describe('remove', () => {
    it('deletes the video (DELETE /videos/{id}); a second delete finds it absent', async () => {
      const post = await publish('To delete');
      mark = vm.requests().length;
      assert.equal(await caps.remove!(ada.session, post), 'removed');
      assert.equal(videoOf(post).deleted, true);
      assert.equal(await caps.remove!(ada.session, post), 'absent');
      assert.deepEqual(received(), [`DELETE /videos/${post.root.platformId}`, `DELETE /videos/${post.root.platformId}`]);
    });

    it('a token without the delete scope is refused with Vimeo\'s words; a revoked one is an auth failure', async () => {
      const post = await publish('Kept');
      const narrow = vm.oauth.issue(ada.id, APP.clientId, ['public', 'private', 'upload']).accessToken;
      await assert.rejects(caps.remove!(sessionOf(ada.id, narrow), post), (e: unknown) =>
        e instanceof PublishError && e.kind === 'permanent' && e.code === 'forbidden' && /does not have the "delete" scope/.test(e.message));
      const revoked = vm.oauth.issue(ada.id, APP.clientId, VIMEO_SCOPES).accessToken;
      vm.oauth.revoke(revoked);
      await assert.rejects(caps.remove!(sessionOf(ada.id, revoked), post), (e: unknown) => e instanceof PublishError && e.kind === 'auth');
      await assert.rejects(caps.remove!(sessionOf(ada.id, null), post), (e: unknown) => e instanceof PublishError && e.kind === 'auth');
      assert.equal(videoOf(post).deleted, false);
    });

    it('a post id that is not a Vimeo id is refused before any call', async () => {
      const bogus: PublishedPost = { root: { platformId: '../me', url: '' }, parts: [], block: {} };
      mark = vm.requests().length;
      await assert.rejects(caps.remove!(ada.session, bogus), (e: unknown) => e instanceof PublishError && e.kind === 'permanent' && e.code === 'invalid');
      assert.deepEqual(received(), []);
    });
  });

  describe('own posts', () => {
    it('pages through /me/videos newest first (page numbers as cursors), mapping each video', async () => {
      const own = await ownMember();
      const titles = ['First', 'Second', 'Third'];
      for (const [i, title] of titles.entries()) {
        await own.create(title, `Text ${i}`);
        vm.clock.advance(60_000);
      }
      mark = vm.requests().length;
      const first = await caps.ownPosts!(own.session, {});
      const listed = vm.videos().filter((v) => v.ownerId === own.id).reverse();
      assert.deepEqual(first.items.map((p) => p.text), ['Text 2', 'Text 1', 'Text 0']);
      assert.deepEqual(first.items[0], {
        platformId: listed[0]!.id, url: `https://vimeo.com/${listed[0]!.id}`, text: 'Text 2', createdAt: first.items[0]!.createdAt, mediaCount: 1,
        ref: { uri: `/videos/${listed[0]!.id}`, name: 'Third' },
      });
      assert.match(first.items[0]!.createdAt!, /^\d{4}-\d\d-\d\dT/);
      assert.equal(first.next, undefined, 'one page holds them');
      assert.deepEqual(received(), ['GET /me/videos?direction=desc&fields=uri%2Cname%2Cdescription%2Clink%2Ccreated_time%2Ctype&page=1&per_page=100&sort=date']);
    });

    it('goes on with page 2 when Vimeo has more, and stops at the first video older than since', async () => {
      const own = await ownMember();
      for (let i = 0; i < 205; i++) {
        await own.create(`V${i}`, `T${i}`);
        vm.clock.advance(1000);
      }
      const page1 = await caps.ownPosts!(own.session, {});
      assert.equal(page1.items.length, 100);
      assert.equal(page1.next, '2');
      const page3 = await caps.ownPosts!(own.session, { cursor: '3' });
      assert.deepEqual(page3.items.map((p) => p.text), ['T4', 'T3', 'T2', 'T1', 'T0']);
      assert.equal(page3.next, undefined);
      // since = T50's time: page 1 (T204…T105) is whole, page 2 ends the listing at it; until = T203's.
      const all = [...page1.items, ...(await caps.ownPosts!(own.session, { cursor: '2' })).items];
      const timeOf = (text: string) => new Date(Date.parse(all.find((p) => p.text === text)!.createdAt!));
      const [since, until] = [timeOf('T50'), timeOf('T203')];
      const bounded1 = await caps.ownPosts!(own.session, { since, until });
      assert.deepEqual(bounded1.items.slice(0, 2).map((p) => p.text), ['T203', 'T202'], 'newer than until dropped');
      assert.equal(bounded1.next, '2');
      const bounded2 = await caps.ownPosts!(own.session, { since, until, cursor: bounded1.next });
      assert.equal(bounded2.items.at(-1)!.text, 'T50');
      assert.equal(bounded2.next, undefined, 'an older video was reached: no further page');
    });

    it('a cursor that is not a page number is refused', async () => {
      await assert.rejects(caps.ownPosts!(ada.session, { cursor: 'https://evil.example/' }), (e: unknown) => e instanceof PublishError && e.code === 'invalid');
    });
  });

  describe('comments', () => {
    it('lists top-level comments as Reply records, with their replies one tier deep when asked', async () => {
      const post = await publish('Talked about');
      const top = vm.addComment(post.root.platformId, { userId: bob.id, text: 'Great video' });
      vm.clock.advance(1000);
      const answer = vm.addComment(post.root.platformId, { userId: ada.id, text: 'Thanks Bob', parentId: top });
      vm.clock.advance(1000);
      const later = vm.addComment(post.root.platformId, { userId: ada.id, text: 'Second thought' });
      mark = vm.requests().length;

      const flat = await caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false });
      assert.deepEqual(flat.items.map((r) => [r.id, r.text]), [[later, 'Second thought'], [top, 'Great video']], 'newest first, replies not at the top level');
      assert.equal(flat.next, undefined);
      assert.ok(flat.items.every((r) => !('replies' in r)));
      const bobs = flat.items[1]!;
      assert.deepEqual(bobs, {
        id: top, author: `/users/${bob.id}`, author_name: 'Bob Viewer', author_avatar_url: 'https://i.vimeocdn.com/portrait/42_360x360?r=pad',
        author_profile_url: `https://vimeo.com/user${bob.id}`, text: 'Great video', created_at: bobs.created_at,
        platform_specific: { uri: `/videos/${post.root.platformId}/comments/${top}`, reply_count: 1 },
      });
      assert.ok(!Number.isNaN(Date.parse(bobs.created_at!)));
      assert.deepEqual(received(), [`GET /videos/${post.root.platformId}/comments?direction=desc&page=1&per_page=100`]);

      mark = vm.requests().length;
      const nested = await caps.comments!.list(ada.session, post, { includeReplies: true, resolveAuthorNames: false });
      assert.deepEqual(nested.items.map((r) => [r.id, (r.replies ?? []).map((a) => [a.id, a.text, a.author])]), [
        [later, []],
        [top, [[answer, 'Thanks Bob', `/users/${ada.id}`]]],
      ]);
      assert.deepEqual(received(), [
        `GET /videos/${post.root.platformId}/comments?direction=desc&page=1&per_page=100`,
        `GET /videos/${post.root.platformId}/comments/${top}/replies?direction=asc&page=1&per_page=100`,
      ], 'replies read only for the comment that has some');
    });

    it('pages with page numbers; a member who left Vimeo is an unknown author', async () => {
      const post = await publish('Popular');
      const gone = vm.addUser({ name: 'Gone' });
      vm.addComment(post.root.platformId, { userId: gone.id, text: 'old one' });
      for (let i = 0; i < 100; i++) vm.addComment(post.root.platformId, { userId: bob.id, text: `c${i}` });
      vm.removeUser(gone.id);
      const first = await caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false });
      assert.equal(first.items.length, 100);
      assert.equal(first.next, '2');
      const second = await caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false, cursor: first.next });
      assert.deepEqual(second.items.map((r) => [r.text, r.author, r.author_name]), [['old one', '', null]]);
      assert.equal(second.next, undefined);
    });

    it('answers the video and a comment; the answer is listed under its comment', async () => {
      const post = await publish('Answered');
      const top = vm.addComment(post.root.platformId, { userId: bob.id, text: 'Question?' });
      mark = vm.requests().length;
      const comment = await caps.comments!.reply(ada.session, post, 'A note from us');
      const reply = await caps.comments!.reply(ada.session, post, 'An answer', top);
      const stored = videoOf(post).comments;
      assert.deepEqual(stored.map((c) => [c.id, c.text, c.userId, c.parentId]), [
        [top, 'Question?', bob.id, null],
        [comment.replyId, 'A note from us', ada.id, null],
        [reply.replyId, 'An answer', ada.id, top],
      ]);
      const bodies = vm.requests().slice(mark).map((r) => [r.method, r.path, r.json]);
      assert.deepEqual(bodies, [
        ['POST', `/videos/${post.root.platformId}/comments`, { text: 'A note from us' }],
        ['POST', `/videos/${post.root.platformId}/comments/${top}/replies`, { text: 'An answer' }],
      ]);
    });

    it('refuses an answer to a reply or an unknown comment (not_found), a bogus id and empty text before calling', async () => {
      const post = await publish('Refusals');
      const top = vm.addComment(post.root.platformId, { userId: bob.id, text: 'Top' });
      const answer = vm.addComment(post.root.platformId, { userId: ada.id, text: 'Answer', parentId: top });
      for (const parent of [answer, '999999']) {
        await assert.rejects(caps.comments!.reply(ada.session, post, 'deeper', parent), (e: unknown) => e instanceof PublishError && e.code === 'not_found', parent);
      }
      mark = vm.requests().length;
      await assert.rejects(caps.comments!.reply(ada.session, post, 'x', '1/../../me'), (e: unknown) => e instanceof PublishError && e.code === 'invalid');
      await assert.rejects(caps.comments!.reply(ada.session, post, '   '), (e: unknown) => e instanceof PublishError && e.code === 'invalid');
      assert.deepEqual(received(), []);
    });

    it('comments closed on the video: Vimeo\'s 403 3413, permanent', async () => {
      const closed = await new VimeoClient(vm.url, ada.token).createVideo({ upload: { approach: 'tus', size: 10 }, name: 'Closed', privacy: { comments: 'nobody' } });
      const post: PublishedPost = { root: { platformId: closed.uri.split('/').at(-1)!, url: closed.link, ref: { uri: closed.uri } }, parts: [], block: {} };
      await assert.rejects(caps.comments!.reply(ada.session, post, 'hello'), (e: unknown) =>
        e instanceof PublishError && e.kind === 'permanent' && e.code === 'forbidden' && /3413/.test(e.message));
    });

    it('the legacy shape is Vimeo\'s comment objects untouched, a page at a time', async () => {
      const post = await publish('Legacy');
      const top = vm.addComment(post.root.platformId, { userId: bob.id, text: 'Raw' });
      const page = await caps.comments!.legacy!(ada.session, post, {});
      const raw = page.items as any[];
      assert.equal(raw.length, 1);
      assert.equal(raw[0].uri, `/videos/${post.root.platformId}/comments/${top}`);
      assert.equal(raw[0].text, 'Raw');
      assert.equal(raw[0].type, 'video');
      assert.equal(raw[0].user.uri, `/users/${bob.id}`);
      assert.deepEqual(raw[0].metadata.connections.replies, { uri: `/videos/${post.root.platformId}/comments/${top}/replies`, options: ['GET', 'POST'], total: 0 });
      assert.equal(page.next, undefined);
    });

    it('a deleted video\'s comments are not_found', async () => {
      const post = await publish('Gone');
      await caps.remove!(ada.session, post);
      await assert.rejects(caps.comments!.list(ada.session, post, { includeReplies: false, resolveAuthorNames: false }), (e: unknown) =>
        e instanceof PublishError && e.code === 'not_found');
    });
  });

  describe('analytics', () => {
    it('a video: stats.plays as views, the comments and likes totals; nothing else claimed', async () => {
      const post = await publish('Counted');
      vm.addComment(post.root.platformId, { userId: bob.id, text: 'one' });
      vm.addComment(post.root.platformId, { userId: bob.id, text: 'two' });
      vm.setVideoStats(post.root.platformId, { plays: 321, likes: 7 });
      mark = vm.requests().length;
      assert.deepEqual(await caps.analytics!.post!(ada.session, post), {
        likes: 7, comments: 2, shares: null, views: 321, reach: null, saves: null, impressions: null, platform_specific: {},
      });
      assert.deepEqual(received(), [`GET /videos/${post.root.platformId}?fields=stats.plays%2Cmetadata.connections.comments.total%2Cmetadata.connections.likes.total`]);
      vm.setVideoStats(post.root.platformId, { plays: null });
      assert.equal((await caps.analytics!.post!(ada.session, post)).views, null, 'plays not counted: unknown, never 0');
    });

    it('the member: followers, following and videos totals, not ranged', async () => {
      const own = await ownMember();
      await own.create('One', 'x');
      await own.create('Two', 'y');
      vm.setFollowers(own.id, { followers: 1500, following: 20 });
      mark = vm.requests().length;
      const since = new Date(Date.now() - 7 * 86_400_000);
      assert.deepEqual(await caps.analytics!.account!(own.session, { since, until: new Date() }), {
        followers: 1500, following: 20, posts: 2, engagement: null, ranged: false, platform_specific: {},
      });
      assert.deepEqual(received(), ['GET /me?fields=metadata.connections.followers.total%2Cmetadata.connections.following.total%2Cmetadata.connections.videos.total']);
    });

    it('a 429 says when to come back (X-RateLimit-Reset)', async () => {
      const post = await publish('Limited');
      vm.setRateLimit({ limit: 0, windowMs: 60_000 });
      try {
        await assert.rejects(caps.analytics!.post!(ada.session, post), (e: unknown) =>
          e instanceof PublishError && e.code === 'rate_limited' && e.retryAfterMs !== undefined && e.retryAfterMs > 0);
      } finally {
        vm.setRateLimit({ limit: 1000, windowMs: 60_000 });
      }
    });
  });

  /** A member of their own (a fresh video list), with a quick way to create videos through the API. */
  async function ownMember() {
    const user = vm.addUser({});
    const token = vm.oauth.issue(user.id, APP.clientId, VIMEO_SCOPES).accessToken;
    const client = new VimeoClient(vm.url, token);
    return {
      id: user.id,
      session: sessionOf(user.id, token),
      create: (name: string, description: string) => client.createVideo({ upload: { approach: 'tus', size: 10 }, name, description }),
    };
  }
});
