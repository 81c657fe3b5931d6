// Google Business Profile after publishing, each capability called directly against the Google
// emulator over HTTP: deleting a localPost (DELETE /v4/{name}), listing the location's posts
// (GET …/localPosts, pageToken pages) and the location's figures over a period (the Performance API's
// locations/{l}:fetchMultiDailyMetricsTimeSeries). No comments and no per-post figures are declared.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/google/server.ts';
import type { NetworkCapabilities } from '../../../src/networks/capabilities.ts';
import type { PublishedPost } from '../../../src/core/post.ts';
import { PublishError } from '../../../src/core/errors.ts';
import { capabilitiesAt, sessionOf } from '../../helpers/engagement-session.ts';
import { APP } from './setup.ts';

const SCOPE = 'https://www.googleapis.com/auth/business.manage';
const DAY_MS = 86_400_000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const published = (name: string): PublishedPost => {
  const root = { platformId: name, url: 'https://local.google.com/place' };
  return { root, parts: [root], block: {} };
};

describe('Google Business Profile engagement capabilities', () => {
  let google: GoogleEmulator;
  let caps: NetworkCapabilities;

  before(async () => {
    google = await startGoogleEmulator();
    google.addApp(APP);
    caps = capabilitiesAt('google_business', google.url);
  });
  after(() => google.close());

  /** A new user's location, and a session on it. */
  const location = (title: string, scopes = [SCOPE]) => {
    const user = google.addUser({ name: `${title} Owner`, channel: null, businessAccounts: [{ accountName: title, type: 'LOCATION_GROUP', locations: [{ title }] }] });
    const account = user.businessAccounts[0]!;
    const parent = `${account.name}/${account.locations[0]!.name}`;
    const token = google.oauth.issue(user.id, APP.clientId, scopes).accessToken;
    return { user, parent, location: account.locations[0]!.name, token, session: sessionOf('google_business', parent, token) };
  };
  /** A post created on the emulator as Crier's publishing would (POST …/localPosts). */
  const createPost = async (parent: string, token: string, summary: string) => {
    const res = await fetch(`${google.url}/v4/${parent}/localPosts`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ topicType: 'STANDARD', summary, languageCode: 'en' }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { name: string; searchUrl: string; createTime: string };
  };
  const callsUnder = (prefix: string) => google.business.calls().filter((c) => c.path.startsWith(prefix)).map((c) => `${c.method} ${c.path} ${c.status}`);

  it('declares remove, ownPosts and account analytics only (no comments, no per-post figures)', () => {
    assert.deepEqual(Object.keys(caps).sort(), ['analytics', 'ownPosts', 'remove']);
    assert.deepEqual(Object.keys(caps.analytics!), ['account']);
  });

  it('remove deletes the localPost, then finds it absent; it is no longer listed', async () => {
    const { parent, token, session } = location('Remove Bakery');
    const post = await createPost(parent, token, 'Fresh bread today');
    const other = await createPost(parent, token, 'Stays');
    assert.equal(await caps.remove!(session, published(post.name)), 'removed');
    assert.equal(await caps.remove!(session, published(post.name)), 'absent');
    const page = await caps.ownPosts!(session, {});
    assert.deepEqual(page.items.map((p) => p.platformId), [other.name]);
    assert.deepEqual(callsUnder(`/v4/${parent}/localPosts/`), [`DELETE /v4/${post.name} 200`, `DELETE /v4/${post.name} 404`]);
  });

  it('remove refuses a post of another location without calling Google, and a revoked token is an auth error', async () => {
    const mine = location('Mine Cafe');
    const theirs = location('Their Cafe');
    const post = await createPost(theirs.parent, theirs.token, 'Not yours');
    const before = google.business.calls().length;
    await assert.rejects(caps.remove!(mine.session, published(post.name)), (e: PublishError) => e.kind === 'permanent' && e.code === 'invalid');
    assert.equal(google.business.calls().length, before, 'nothing sent');
    google.revokeUser(theirs.user.id);
    await assert.rejects(caps.remove!(theirs.session, published(post.name)), (e: PublishError) => e.kind === 'auth');
    assert.ok(google.business.posts().some((p) => p.name === post.name && !p.deleted));
  });

  it('ownPosts pages through the location\'s posts, 100 at a time, newest first', async () => {
    const { parent, token, session } = location('Busy Diner');
    const made: string[] = [];
    for (let i = 0; i < 103; i++) {
      // Google allows 10 edits a minute per location: the emulator's clock moves a minute every ten posts.
      if (i > 0 && i % 10 === 0) google.clock.advance(61_000);
      made.push((await createPost(parent, token, `Special ${i}`)).name);
    }
    const first = await caps.ownPosts!(session, {});
    assert.equal(first.items.length, 100);
    assert.ok(first.next);
    const second = await caps.ownPosts!(session, { cursor: first.next });
    assert.equal(second.next, undefined);
    assert.deepEqual([...first.items, ...second.items].map((p) => p.platformId), made.reverse());
    const oldest = second.items.at(-1)!;
    const stored = google.business.posts().find((p) => p.name === oldest.platformId)!.post;
    assert.deepEqual(oldest, {
      platformId: oldest.platformId, url: stored.searchUrl, text: 'Special 0', createdAt: stored.createTime, mediaCount: 0,
      ref: { topicType: 'STANDARD', state: 'LIVE' },
    });
    const lists = google.business.calls().filter((c) => c.method === 'GET' && c.path === `/v4/${parent}/localPosts`);
    assert.deepEqual(lists.map((c) => [c.query.pageSize, c.query.pageToken]), [['100', undefined], ['100', first.next]]);
  });

  it('ownPosts marks a post Google rejected as unsupported', async () => {
    const { parent, token, session } = location('Rejected Shop');
    google.business.reviewNext({ reads: 0, verdict: 'REJECTED' });
    await createPost(parent, token, 'Against policy');
    const [item] = (await caps.ownPosts!(session, {})).items;
    assert.match(item!.unsupported!, /rejected/);
  });

  it('analytics.account sums each DailyMetric over the period; engagement = the interactions', async () => {
    const { location: loc, session } = location('Metrics Salon');
    google.business.setDailyMetric(loc, 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH', [{ date: day(40), value: 999 }, { date: day(5), value: 30 }, { date: day(1), value: 12 }]);
    google.business.setDailyMetric(loc, 'BUSINESS_IMPRESSIONS_DESKTOP_MAPS', [{ date: day(3), value: 8 }]);
    google.business.setDailyMetric(loc, 'CALL_CLICKS', [{ date: day(2), value: 3 }]);
    google.business.setDailyMetric(loc, 'WEBSITE_CLICKS', [{ date: day(6), value: 4 }, { date: day(50), value: 100 }]);
    google.business.setDailyMetric(loc, 'BUSINESS_DIRECTION_REQUESTS', [{ date: day(0), value: 2 }]);
    const since = new Date(Date.now() - 7 * DAY_MS);
    const metrics = await caps.analytics!.account!(session, { since, until: new Date() });
    assert.equal(metrics.followers, null);
    assert.equal(metrics.following, null);
    assert.equal(metrics.posts, null);
    assert.equal(metrics.ranged, true);
    assert.equal(metrics.engagement, 9, 'calls 3 + website 4 + directions 2');
    assert.equal(metrics.platform_specific.BUSINESS_IMPRESSIONS_MOBILE_SEARCH, 42);
    assert.equal(metrics.platform_specific.BUSINESS_IMPRESSIONS_DESKTOP_MAPS, 8);
    assert.equal(metrics.platform_specific.BUSINESS_BOOKINGS, 0);
    assert.deepEqual(metrics.platform_specific.period, { start_date: day(7), end_date: day(0) });
    const call = google.business.calls().find((c) => c.path === `/v1/${loc}:fetchMultiDailyMetricsTimeSeries`)!;
    assert.equal(call.status, 200);
    const [y, m, d] = day(7).split('-').map(Number);
    assert.equal(call.query['dailyRange.start_date.year'], String(y));
    assert.equal(call.query['dailyRange.start_date.month'], String(m));
    assert.equal(call.query['dailyRange.start_date.day'], String(d));
    const asked = ['BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH', 'BUSINESS_IMPRESSIONS_MOBILE_MAPS', 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
      'BUSINESS_DIRECTION_REQUESTS', 'CALL_CLICKS', 'WEBSITE_CLICKS', 'BUSINESS_BOOKINGS', 'BUSINESS_FOOD_ORDERS', 'BUSINESS_FOOD_MENU_CLICKS'];
    assert.equal(call.query.dailyMetrics, asked.join(','), 'every repeated dailyMetrics value, in the order sent');
  });

  it('analytics.account: a period ending before it starts is refused; a token without the scope is an auth error', async () => {
    const { session, user } = location('Scope Store');
    await assert.rejects(caps.analytics!.account!(session, { since: new Date(), until: new Date(Date.now() - DAY_MS) }), (e: PublishError) => e.kind === 'permanent' && e.code === 'invalid');
    const narrow = sessionOf('google_business', session.account.networkUniqueId, google.oauth.issue(user.id, APP.clientId, ['openid']).accessToken);
    await assert.rejects(caps.analytics!.account!(narrow, { since: new Date(Date.now() - DAY_MS), until: new Date() }), (e: PublishError) => e.kind === 'auth' && /business\.manage/.test(e.message));
  });

  it('analytics.account of a location the user no longer manages: the refusal, not figures', async () => {
    const owner = location('Sold Shop');
    const stranger = location('Stranger Shop');
    const borrowed = sessionOf('google_business', owner.parent, stranger.token);
    await assert.rejects(caps.analytics!.account!(borrowed, { since: new Date(Date.now() - DAY_MS), until: new Date() }), (e: PublishError) => e.kind === 'permanent' && e.code === 'forbidden');
  });

  it('the emulated Performance API refuses what Google refuses: no metric, an unknown one, a missing or inverted range', async () => {
    const { location: loc, token } = location('Strict Spa');
    const call = async (query: string) => {
      const res = await fetch(`${google.url}/v1/${loc}:fetchMultiDailyMetricsTimeSeries?${query}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as any };
    };
    const range = (start: string, end: string) => ['year', 'month', 'day'].map((f, i) => `dailyRange.start_date.${f}=${start.split('-')[i]}&dailyRange.end_date.${f}=${end.split('-')[i]}`).join('&');
    const ok = await call(`dailyMetrics=CALL_CLICKS&${range('2026-03-01', '2026-03-02')}`);
    assert.deepEqual(ok.body, { multiDailyMetricTimeSeries: [{ dailyMetricTimeSeries: [{ dailyMetric: 'CALL_CLICKS', timeSeries: { datedValues: [
      { date: { year: 2026, month: 3, day: 1 } }, { date: { year: 2026, month: 3, day: 2 } },
    ] } }] }] }, 'a day that counts zero has no value');
    assert.equal((await call(range('2026-03-01', '2026-03-02'))).status, 400);
    const unknown = await call(`dailyMetrics=PROFILE_VIEWS&${range('2026-03-01', '2026-03-02')}`);
    assert.deepEqual([unknown.status, unknown.body.error.status], [400, 'INVALID_ARGUMENT']);
    assert.match(unknown.body.error.message, /Invalid value at 'daily_metrics'.*"PROFILE_VIEWS"/);
    assert.equal((await call('dailyMetrics=CALL_CLICKS')).status, 400);
    assert.equal((await call(`dailyMetrics=CALL_CLICKS&${range('2026-03-05', '2026-03-02')}`)).status, 400);
    assert.equal((await call(`dailyMetrics=CALL_CLICKS&${range('2026-02-30', '2026-03-02')}`)).status, 400, 'not a real date');
  });
});
