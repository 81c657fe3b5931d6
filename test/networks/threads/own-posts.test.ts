// The profile's own posts through Crier's `ownPosts` capability (imports), over real HTTP against the
// emulator: GET /{user-id}/threads newest first, 100 a page with Threads' cursor, since/until as Unix
// seconds; media counted per kind; reposts and audio posts marked unsupported; replies and other
// profiles' posts not listed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PublishError } from '../../../src/core/errors.ts';
import { engagementSetup, type EngagementSetup, type Profile } from './setup.ts';

const HOUR = 3600_000;

describe('Threads own posts', () => {
  let s: EngagementSetup;

  before(async () => {
    s = await engagementSetup();
  });
  after(() => s.close());

  it('maps each kind of post, newest first, without replies or anyone else\'s posts', async () => {
    const ada: Profile = s.profile('ada_posts');
    const text = s.th.addPost({ userId: ada.userId, text: 'plain words', agoMs: 6 * HOUR });
    const image = s.th.addPost({ userId: ada.userId, text: 'a photo', mediaType: 'IMAGE', agoMs: 5 * HOUR });
    const carousel = s.th.addPost({ userId: ada.userId, text: 'three photos', mediaType: 'CAROUSEL_ALBUM', items: 3, agoMs: 4 * HOUR });
    const video = s.th.addPost({ userId: ada.userId, mediaType: 'VIDEO', agoMs: 3 * HOUR });
    const repost = s.th.addPost({ userId: ada.userId, mediaType: 'REPOST_FACADE', agoMs: 2 * HOUR });
    const audio = s.th.addPost({ userId: ada.userId, text: 'listen', mediaType: 'AUDIO', agoMs: 1 * HOUR });
    s.th.addReply({ to: text.id, username: 'ada_posts', text: 'a reply is no post' });
    const other = s.profile('not_ada');
    s.th.addPost({ userId: other.userId, text: 'theirs' });
    const from = s.th.calls().length;
    const page = await s.caps.ownPosts!(ada.session, {});
    assert.equal(page.next, undefined);
    assert.deepEqual(page.items.map((p) => [p.platformId, p.text, p.mediaCount, p.unsupported ?? null]), [
      [audio.id, 'listen', 1, 'an audio post (Crier publishes no audio)'],
      [repost.id, '', 0, 'a repost of another profile\'s post'],
      [video.id, '', 1, null],
      [carousel.id, 'three photos', 3, null],
      [image.id, 'a photo', 1, null],
      [text.id, 'plain words', 0, null],
    ]);
    assert.equal(page.items[5]!.url, text.permalink);
    assert.equal(page.items[5]!.createdAt, new Date(Math.floor(text.publishedAt / 1000) * 1000).toISOString());
    const calls = s.callsSince(from);
    assert.deepEqual(calls.map((c) => `${c.method} ${c.path}`), [`GET /v1.0/${ada.userId}/threads`]);
    assert.equal(calls[0]!.params.limit, '100');
    assert.match(calls[0]!.params.fields!, /media_type/);
  });

  it('pages with the cursor and bounds the period with since/until in Unix seconds', async () => {
    const bea = s.profile('bea_posts');
    for (let i = 0; i < 130; i++) s.th.addPost({ userId: bea.userId, text: `old ${i}`, agoMs: (200 - i) * HOUR });
    const first = await s.caps.ownPosts!(bea.session, {});
    assert.equal(first.items.length, 100);
    assert.equal(first.items[0]!.text, 'old 129');
    const second = await s.caps.ownPosts!(bea.session, { cursor: first.next });
    assert.equal(second.next, undefined);
    assert.deepEqual(second.items.map((p) => p.text), Array.from({ length: 30 }, (_, i) => `old ${29 - i}`));
    const now = Date.now();
    const from = s.th.calls().length;
    const bounded = await s.caps.ownPosts!(bea.session, { since: new Date(now - 80.5 * HOUR), until: new Date(now - 75.5 * HOUR) });
    assert.deepEqual(bounded.items.map((p) => p.text), ['old 124', 'old 123', 'old 122', 'old 121', 'old 120']);
    const call = s.callsSince(from)[0]!;
    assert.equal(call.params.since, String(Math.floor((now - 80.5 * HOUR) / 1000)));
    assert.equal(call.params.until, String(Math.floor((now - 75.5 * HOUR) / 1000)));
    // Threads refuses a since before its API existed: Crier asks from then on.
    await s.caps.ownPosts!(bea.session, { since: new Date('2020-01-01T00:00:00Z') });
    assert.equal(s.th.calls().at(-1)!.params.since, '1688540400');
  });

  it('a refused token is an auth PublishError', async () => {
    const gone = s.profile('gone_posts');
    s.th.revokeUser(gone.userId);
    await assert.rejects(s.caps.ownPosts!(gone.session, {}), (e: PublishError) => e instanceof PublishError && e.kind === 'auth');
  });
});
