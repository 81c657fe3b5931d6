// Pinterest after publishing, each capability called directly against the emulator over HTTP:
// deleting a pin (DELETE /v5/pins/{id}), listing the account's own pins (GET /v5/pins, bookmark
// pages), a pin's figures (GET /v5/pins/{id}, then /analytics over the last 90 days) and the
// account's (GET /v5/user_account and /v5/user_account/analytics over the period).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPinterestEmulator, type PinterestEmulator } from '../../../emulators/pinterest/server.ts';
import type { PinterestBoard } from '../../../emulators/pinterest/state.ts';
import type { NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { capabilitiesAt, sessionOf } from '../../helpers/engagement-session.ts';

const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const published = (pinId: string): PublishedPost => {
  const root = { platformId: pinId, url: `https://www.pinterest.com/pin/${pinId}/` };
  return { root, parts: [root], block: {} };
};

describe('Pinterest engagement capabilities', () => {
  let pin: PinterestEmulator;
  let caps: NetworkCapabilities;

  before(async () => {
    pin = await startPinterestEmulator();
    caps = capabilitiesAt('pinterest', pin.url);
  });
  after(() => pin.close());

  const account = (username: string) => {
    const user = pin.addUser({ username });
    const board: PinterestBoard = pin.addBoard({ ownerId: user.id, name: 'Main' });
    return { user, board, session: sessionOf('pinterest', user.id, pin.issueToken(user.id)) };
  };
  const callsOf = (userId: string) => pin.calls().filter((c) => c.userId === userId).map((c) => ({ method: c.method, path: c.path, status: c.status, query: c.query }));

  it('remove deletes the pin, then finds it absent; a revoked token is an auth error', async () => {
    const { user, board, session } = account('ada_remove');
    const made = pin.addPin({ boardId: board.id, description: 'bye' });
    const keep = pin.addPin({ boardId: board.id, description: 'stays' });
    assert.equal(await caps.remove!(session, published(made.id)), 'removed');
    assert.deepEqual(pin.pins().filter((p) => p.ownerId === user.id).map((p) => p.id), [keep.id], 'only the removed pin is gone');
    assert.equal(await caps.remove!(session, published(made.id)), 'absent');
    assert.deepEqual(callsOf(user.id).map((c) => `${c.method} ${c.path} ${c.status}`), [`DELETE /v5/pins/${made.id} 204`, `DELETE /v5/pins/${made.id} 404`]);
    pin.revokeUser(user.id);
    await assert.rejects(caps.remove!(session, published(keep.id)), (e: PublishError) => e.kind === 'auth' && /Authentication failed/.test(e.message));
    assert.equal(pin.pins().some((p) => p.id === keep.id), true);
  });

  it('someone else\'s pin cannot be removed: absent, and it stays', async () => {
    const { session } = account('ada_not_mine');
    const other = account('other_owner');
    const theirs = pin.addPin({ boardId: other.board.id });
    assert.equal(await caps.remove!(session, published(theirs.id)), 'absent');
    assert.ok(pin.pins().some((p) => p.id === theirs.id));
  });

  it('ownPosts lists the account\'s pins newest first, 100 a page, repins marked unsupported', async () => {
    const { user, board, session } = account('ada_list');
    const other = account('other_list');
    pin.addPin({ boardId: other.board.id, description: 'not hers' });
    const carousel = pin.addPin({ boardId: board.id, title: 'Set', description: 'three photos', images: 3, createdAt: '2026-01-02T03:04:05' });
    const repin = pin.addPin({ boardId: board.id, title: 'Saved', parentPinId: '123456' });
    for (let i = 0; i < 103; i++) pin.addPin({ boardId: board.id, description: `filler ${i}` });
    const first = await caps.ownPosts!(session, {});
    assert.equal(first.items.length, 100);
    assert.equal(first.items[0]!.text, 'filler 102');
    assert.ok(first.next);
    const second = await caps.ownPosts!(session, { cursor: first.next });
    assert.equal(second.next, undefined);
    assert.equal(second.items.length, 5);
    assert.deepEqual(second.items.at(-1), {
      platformId: carousel.id, url: `https://www.pinterest.com/pin/${carousel.id}/`, text: 'three photos',
      createdAt: '2026-01-02T03:04:05.000Z', mediaCount: 3, ref: { title: 'Set', boardId: board.id },
    });
    const saved = second.items.find((p) => p.platformId === repin.id)!;
    assert.equal(saved.text, 'Saved');
    assert.match(saved.unsupported!, /saved from another Pin \(123456\)/);
    assert.deepEqual(callsOf(user.id).map((c) => [c.path, c.query?.page_size, c.query?.bookmark]), [['/v5/pins', '100', undefined], ['/v5/pins', '100', first.next]]);
  });

  it('analytics.post: the last 90 days\' impressions and saves, lifetime comments and reactions, the rest under Pinterest\'s names', async () => {
    const { user, board, session } = account('ada_pin_stats');
    const image = pin.addPin({ boardId: board.id, description: 'photo' });
    pin.setPinAnalytics(image.id, [
      { date: day(120), metrics: { IMPRESSION: 1000, SAVE: 100 } },
      { date: day(10), metrics: { IMPRESSION: 240, SAVE: 20, PIN_CLICK: 37, OUTBOUND_CLICK: 5, SAVE_RATE: 0.1 } },
      { date: day(1), metrics: { IMPRESSION: 60, SAVE: 4, PIN_CLICK: 3, OUTBOUND_CLICK: 1, SAVE_RATE: 0.3 } },
    ], { TOTAL_COMMENTS: 2, TOTAL_REACTIONS: 12 });
    const metrics = await caps.analytics!.post!(session, published(image.id));
    assert.equal(metrics.impressions, 300, 'the day 120 days back is outside Pinterest\'s 90 days');
    assert.equal(metrics.saves, 24);
    assert.equal(metrics.comments, 2);
    assert.equal(metrics.likes, 12);
    assert.equal(metrics.views, null, 'an image pin has no video views');
    assert.equal(metrics.shares, null);
    assert.equal(metrics.reach, null);
    assert.equal(metrics.platform_specific.PIN_CLICK, 40);
    assert.equal(metrics.platform_specific.OUTBOUND_CLICK, 6);
    assert.ok(Math.abs((metrics.platform_specific.SAVE_RATE as number) - 0.2) < 1e-9);
    assert.deepEqual(metrics.platform_specific.period, { start_date: day(90), end_date: day(0) });
    const calls = callsOf(user.id);
    assert.deepEqual(calls.map((c) => c.path), [`/v5/pins/${image.id}`, `/v5/pins/${image.id}/analytics`]);
    assert.deepEqual(calls[1]!.query, {
      start_date: day(90), end_date: day(0), app_types: 'ALL', split_field: 'NO_SPLIT',
      metric_types: 'IMPRESSION,OUTBOUND_CLICK,PIN_CLICK,SAVE,SAVE_RATE,USER_FOLLOW,PROFILE_VISIT,TOTAL_COMMENTS,TOTAL_REACTIONS',
    });
  });

  it('analytics.post of a video pin reads VIDEO_MRC_VIEW as views; a deleted pin is not_found', async () => {
    const { user, board, session } = account('ada_video_stats');
    const video = pin.addPin({ boardId: board.id, mediaType: 'video' });
    pin.setPinAnalytics(video.id, [{ date: day(3), metrics: { IMPRESSION: 50, VIDEO_MRC_VIEW: 20, VIDEO_START: 29, SAVE: 1 } }]);
    const metrics = await caps.analytics!.post!(session, published(video.id));
    assert.equal(metrics.views, 20);
    assert.equal(metrics.impressions, 50);
    assert.equal(metrics.platform_specific.VIDEO_START, 29);
    assert.equal(metrics.comments, 0);
    assert.match(callsOf(user.id)[1]!.query!.metric_types!, /VIDEO_MRC_VIEW/);
    await caps.remove!(session, published(video.id));
    await assert.rejects(caps.analytics!.post!(session, published(video.id)), (e: PublishError) => e.code === 'not_found' && e.kind === 'permanent');
  });

  it('analytics.account: profile counts now, engagement over the period asked (held to 90 days)', async () => {
    const { user, session } = account('ada_account_stats');
    pin.setCounts(user.id, { follower_count: 10, following_count: 347, pin_count: 339, board_count: 14, monthly_views: 163 });
    pin.setAccountAnalytics(user.id, [
      { date: day(20), metrics: { ENGAGEMENT: 100, IMPRESSION: 900 } },
      { date: day(5), metrics: { ENGAGEMENT: 7, IMPRESSION: 240, SAVE: 2 } },
      { date: day(2), metrics: { ENGAGEMENT: 3, IMPRESSION: 60, SAVE: 1 } },
    ]);
    const week = await caps.analytics!.account!(session, { since: new Date(Date.now() - 7 * DAY_MS), until: new Date() });
    assert.deepEqual({ ...week, platform_specific: undefined }, { followers: 10, following: 347, posts: 339, engagement: 10, ranged: true, platform_specific: undefined });
    assert.equal(week.platform_specific.IMPRESSION, 300);
    assert.equal(week.platform_specific.SAVE, 3);
    assert.equal(week.platform_specific.board_count, 14);
    assert.equal(week.platform_specific.monthly_views, 163);
    assert.deepEqual(week.platform_specific.period, { start_date: day(7), end_date: day(0) });
    const analytics = callsOf(user.id).filter((c) => c.path === '/v5/user_account/analytics');
    assert.deepEqual(analytics[0]!.query, {
      start_date: day(7), end_date: day(0), app_types: 'ALL', split_field: 'NO_SPLIT',
      metric_types: 'ENGAGEMENT,ENGAGEMENT_RATE,IMPRESSION,OUTBOUND_CLICK,OUTBOUND_CLICK_RATE,PIN_CLICK,PIN_CLICK_RATE,SAVE,SAVE_RATE',
    });
    assert.ok(callsOf(user.id).some((c) => c.path === '/v5/user_account' && c.status === 200));
    const year = await caps.analytics!.account!(session, { since: new Date(Date.now() - 365 * DAY_MS), until: new Date() });
    assert.equal(year.engagement, 110, 'from 90 days back: the day 20 days ago counts');
    assert.deepEqual(year.platform_specific.period, { start_date: day(90), end_date: day(0) });
    await assert.rejects(caps.analytics!.account!(session, { since: new Date(Date.now() - 300 * DAY_MS), until: new Date(Date.now() - 200 * DAY_MS) }), (e: PublishError) => e.kind === 'permanent' && /last 90 days/.test(e.message));
  });

  it('analytics.account without user_accounts:read: Pinterest\'s 403 code 29 as a refusal', async () => {
    const user = pin.addUser({ username: 'ada_no_scope' });
    const session = sessionOf('pinterest', user.id, pin.issueToken(user.id, ['boards:read', 'pins:read']));
    await assert.rejects(caps.analytics!.account!(session, { since: new Date(Date.now() - DAY_MS), until: new Date() }), (e: PublishError) => e.kind === 'permanent' && e.code === 'forbidden' && /code 29/.test(e.message));
  });
});
