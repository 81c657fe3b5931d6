// The managed-key daily pool (spec rule 7) with a real database and real publishing: accounts
// connected through the operator's app share the project's two daily buckets (Google's quota table
// since 2026-06-01: videos.insert calls in their own, 100 a day; 10,000 units for every other call),
// admitted at execution time under one lock shared by every worker process. What a user sees: which
// destinations publish, the reason code and retryAt of the others, what YouTube received, what the
// ledger holds, and the usage figures.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPool } from '../../../src/db/pool.ts';
import { createLedger } from '../../../src/accounts/ledger.ts';
import { youtube } from '../../../src/networks/youtube/index.ts';
import { admitUpload, pacificDay } from '../../../src/networks/youtube/pool.ts';
import type { YoutubeSettings } from '../../../src/networks/youtube/settings.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { PNG_1X1 } from '../../helpers/publishing.ts';
import { APP, KIB, startYoutubeHarness, type YoutubeHarness } from './setup.ts';

let size = 300 * KIB;

async function postVideos(yt: YoutubeHarness, org: TestOrg, account: TestAccount, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    size += 4 * KIB;
    const url = await yt.video(org, await paddedVideo(size));
    ids.push(await yt.create(org, { accounts: [account.id], containers: [{ content: `${label} ${i}`, media: [{ url, filename: 'clip.mp4' }] }], youtube: { title: `${label} ${i}` } }));
  }
  return ids;
}

async function outcomes(yt: YoutubeHarness, org: TestOrg, ids: string[]): Promise<{ status: string; error: string | null }[]> {
  const posts = await Promise.all(ids.map((id) => yt.h.stack.waitForPost(org, id, undefined, 90_000)));
  return posts.map((p) => ({ status: p.socialAccounts[0].status, error: p.socialAccounts[0].error }));
}

/** The ledger's sum over subjects LIKE `pattern` (every entry when omitted). */
const ledgerUnits = async (yt: YoutubeHarness, pattern = '%') => Number((await yt.h.server.db.query(
  `SELECT coalesce(sum(units), 0) AS units FROM network_ledger WHERE network = 'youtube' AND pool = 'uploads' AND subject LIKE $1`, [pattern],
)).rows[0].units);
/** Upload calls recorded (the uploads bucket's entries of accounts). */
const ledgerUploads = (yt: YoutubeHarness) => ledgerUnits(yt, 'insert:%');

const usageOf = async (yt: YoutubeHarness, orgId: number) => (await youtube.usage!({ settings: settingsOf(yt), allowLoopbackFetch: true, publicBaseUrl: '' }, createLedger(yt.h.server.db, 'youtube'), orgId)).pool as Record<string, unknown>;

const settingsOf = (yt: YoutubeHarness) => yt.h.server.config.networks.youtube as YoutubeSettings;

describe('a day of eight uploads and the default 10,000 units, two worker processes', { concurrency: false }, () => {
  let yt: YoutubeHarness;
  let org: TestOrg;
  let managed: TestAccount & { channelId: string };
  const workers = workerProcesses(() => yt.h.stack.env);

  before(async () => {
    // Google's old table charged an upload 1,600 of the 10,000 units: six a day. Now an upload is one
    // call of its own bucket, here eight a day, and the units are left to the other calls.
    yt = await startYoutubeHarness({ CRIER_YOUTUBE_POOL_UPLOADS: '8', CRIER_YOUTUBE_POOL_PACING: 'off' }, { worker: false });
    yt.h.stack.media.route('/cover.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG_1X1); });
    org = await yt.h.server.createOrg();
    managed = await yt.addChannel(org, 'managedone', { managedApp: true });
  });
  after(async () => {
    workers.killAll();
    await yt.close();
  });

  test('ten posts due at once: eight publish, two fail with daily_limit_reached and the Pacific midnight as retryAt', async () => {
    const ids = await postVideos(yt, org, managed, 10, 'burst');
    await Promise.all([workers.start(), workers.start()]);
    const results = await outcomes(yt, org, ids);
    assert.equal(results.filter((r) => r.status === 'published').length, 8, JSON.stringify(results));
    const denied = results.filter((r) => r.status === 'failed');
    assert.equal(denied.length, 2);
    const midnight = pacificDay(new Date()).end;
    for (const { error } of denied) {
      assert.equal(error, `youtube: daily_limit_reached: the shared YouTube quota has 0 of 8 uploads left today and this upload needs 1; retryAt=${midnight.toISOString()}`);
    }
    assert.ok(midnight.getTime() > Date.now());
    assert.equal(yt.google.youtube.videos().filter((v) => String(v.snippet.title).startsWith('burst')).length, 8, 'YouTube got eight videos');
    assert.equal(yt.google.youtube.sessions().length, 8, 'the denied ones never opened a session');
    assert.equal(await ledgerUploads(yt), 8);
    const units = await ledgerUnits(yt, 'account:%');
    assert.ok(units >= 8 && units < 50, `units: ${units} (the processing polls, nothing for the uploads)`);
    assert.equal(yt.google.youtube.quotaUsed(APP.clientId, 'uploads'), 8, 'Google counted eight calls in its uploads bucket');
  });

  test('an account on the organization\'s own app is neither limited nor counted', async () => {
    const byok = await yt.addChannel(org, 'ownapp');
    const before = await ledgerUnits(yt);
    const [result] = await outcomes(yt, org, await postVideos(yt, org, byok, 1, 'own app'));
    assert.equal(result!.status, 'published', result!.error ?? '');
    assert.equal(await ledgerUnits(yt), before);
    assert.equal(await ledgerUnits(yt, `%account:${byok.rawId}`), 0);
  });

  test('after a restart of every worker the day\'s count stands, and the usage figures say so', async () => {
    workers.killAll();
    await workers.start();
    const [result] = await outcomes(yt, org, await postVideos(yt, org, managed, 1, 'after restart'));
    assert.equal(result!.status, 'failed');
    assert.match(result!.error!, /^youtube: daily_limit_reached: the shared YouTube quota has 0 of 8 uploads left today/);
    const pool = await usageOf(yt, org.orgId);
    assert.deepEqual(
      [pool.budgetUploads, pool.usedUploads, pool.orgUsedUploads, pool.orgShareUploads, pool.releasedUploads],
      [8, 8, 8, 8, 8], 'uploads: pacing is off, one organization made them all',
    );
    assert.deepEqual([pool.budgetUnits, pool.releasedUnits, pool.orgShareUnits], [10_000, 10_000, 10_000]);
    assert.equal(pool.usedUnits, await ledgerUnits(yt, 'account:%'));
    assert.equal(pool.orgUsedUnits, pool.usedUnits);
    assert.deepEqual([pool.resetsAt, pool.exhausted, pool.pacing], [pacificDay(new Date()).end.toISOString(), false, false]);
    // The same figures, as an organization reads them: GET /v1/usage.
    const served = await yt.h.server.request('GET', '/v1/usage', { key: org.key });
    assert.equal(served.status, 200, JSON.stringify(served.body));
    assert.deepEqual(served.body.data.networks.youtube.pool, pool);
  });
});

describe('an organization\'s share, pacing, units, and Google\'s own quota', { concurrency: false }, () => {
  let yt: YoutubeHarness;

  before(async () => {
    // 2 % of Google's default buckets: two uploads and 200 units per organization a day.
    yt = await startYoutubeHarness({ CRIER_YOUTUBE_POOL_ORG_SHARE: '2', CRIER_YOUTUBE_POOL_PACING: 'off' });
    yt.h.stack.media.route('/cover.png', (_req, res) => { res.writeHead(200, { 'content-type': 'image/png' }); res.end(PNG_1X1); });
  });
  after(async () => yt.close());

  test('an upload with a thumbnail and a comment costs one upload call and 100 units; thumbnails.set is sent with uploadType=media', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'covered', { managedApp: true });
    const url = await yt.video(org, await paddedVideo(size += 4 * KIB));
    const id = await yt.create(org, {
      accounts: [account.id],
      containers: [{ content: 'with a cover', media: [{ url, filename: 'clip.mp4' }] }, { content: 'and a first comment' }],
      youtube: { title: 'covered', thumbnailUrl: `${yt.h.stack.media.url}/cover.png` },
    });
    const [result] = await outcomes(yt, org, [id]);
    assert.equal(result!.status, 'published', result!.error ?? '');
    const admitted = (await yt.h.server.db.query(
      `SELECT subject, units FROM network_ledger WHERE network = 'youtube' AND org_id = $1 AND (subject LIKE 'insert:%' OR units > 1) ORDER BY id`, [org.orgId],
    )).rows.map((r) => [r.subject, Number(r.units)]);
    assert.deepEqual(admitted, [[`insert:account:${account.rawId}`, 1], [`account:${account.rawId}`, 100]], 'the call in the uploads bucket, thumbnail + comment in the units');
    const [set] = yt.google.youtube.thumbnailSets();
    assert.deepEqual([set!.status, set!.uploadType], [200, 'media']);
    const call = yt.google.youtube.calls().find((c) => c.path === '/upload/youtube/v3/thumbnails/set')!;
    assert.equal(call.query.uploadType, 'media');
  });

  test('an organization past its share of uploads fails with org_limit_reached while the pool has room', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'sharer', { managedApp: true });
    const results = await outcomes(yt, org, await postVideos(yt, org, account, 3, 'share'));
    assert.deepEqual(results.map((r) => r.status).sort(), ['failed', 'published', 'published']);
    const error = results.find((r) => r.status === 'failed')!.error!;
    assert.equal(error, `youtube: org_limit_reached: this organization used 2 of its 2 daily YouTube uploads and this upload needs 1; retryAt=${pacificDay(new Date()).end.toISOString()}`);
  });

  test('an organization past its share of units fails with org_limit_reached too', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'talker', { managedApp: true });
    const url = await yt.video(org, await paddedVideo(size += 4 * KIB));
    const comments = Array.from({ length: 5 }, (_, i) => ({ content: `comment ${i}` }));
    const id = await yt.create(org, { accounts: [account.id], containers: [{ content: 'chatty', media: [{ url, filename: 'clip.mp4' }] }, ...comments], youtube: { title: 'chatty' } });
    const [result] = await outcomes(yt, org, [id]);
    assert.equal(result!.error, `youtube: org_limit_reached: this organization used 0 of its 200 daily YouTube units and this upload needs 250; retryAt=${pacificDay(new Date()).end.toISOString()}`);
  });

  test('paced: what is not released yet is release_pending, with the time it will be as retryAt; nothing is recorded', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'paced', { managedApp: true });
    const settings = { ...settingsOf(yt).pool, budgetUnits: 1_000_000, orgSharePercent: 100, pacing: true, burstUnits: 0 };
    const day = pacificDay(new Date());
    const released = (1_000_000 * (Date.now() - day.start.getTime())) / (day.end.getTime() - day.start.getTime());
    const before = await ledgerUnits(yt);
    // Some minutes of release ahead (5,000 units), or half of what the day has left near its end: the
    // upload then fits the day's budget but not what is released yet, whatever the time of day.
    const ahead = Math.min(5000, Math.floor((1_000_000 - released) / 2));
    const denial = await admitUpload(createLedger(yt.h.server.db, 'youtube'), settings, { id: account.rawId, orgId: org.orgId }, Math.ceil(released) + ahead).then(() => undefined, (e: Error) => e);
    assert.match(denial!.message, /^youtube: release_pending: the shared YouTube quota is released through the day; \d+ of 1000000 units are released so far and \d+ are spent; retryAt=(\S+)$/);
    const retryAt = Date.parse(/retryAt=(\S+)$/.exec(denial!.message)![1]!);
    assert.ok(retryAt > Date.now() && retryAt < Date.now() + 20 * 60_000 && retryAt <= day.end.getTime(), `retryAt ${new Date(retryAt).toISOString()} is minutes away, within the day`);
    assert.equal(await ledgerUnits(yt), before);
  });

  test('paced uploads: the day\'s last upload is released at the Pacific midnight', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'pacedup', { managedApp: true });
    const made = (await usageOf(yt, org.orgId)).usedUploads as number;
    // A day of one more upload than made so far, nothing at once: the next is released at the day's end.
    const settings = { ...settingsOf(yt).pool, budgetUploads: made + 1, orgSharePercent: 100, pacing: true, burstUploads: 0 };
    const before = await ledgerUnits(yt);
    const denial = await admitUpload(createLedger(yt.h.server.db, 'youtube'), settings, { id: account.rawId, orgId: org.orgId }, 0).then(() => undefined, (e: Error) => e);
    assert.match(denial!.message, new RegExp(`^youtube: release_pending: the shared YouTube quota is released through the day; \\d+ of ${made + 1} uploads are released so far and ${made} are spent; retryAt=`));
    assert.ok(denial!.message.endsWith(`retryAt=${pacificDay(new Date()).end.toISOString()}`), denial!.message);
    assert.equal(await ledgerUnits(yt), before);
  });

  test('a ledger that cannot be reached denies with quota_unavailable', async () => {
    const closed = createPool(yt.h.server.databaseUrl, 1);
    await closed.end();
    const denial = await admitUpload(createLedger(closed, 'youtube'), settingsOf(yt).pool, { id: 1, orgId: 1 }, 0).then(() => undefined, (e: Error) => e);
    assert.match(denial!.message, /^youtube: quota_unavailable: the shared YouTube quota could not be checked \(.+\); try again$/);
  });

  test('Google\'s quotaExceeded on videos.insert fails the upload with provider_quota_exhausted and closes the pool until the reset', async () => {
    yt.google.youtube.setQuota({ uploadCalls: yt.google.youtube.quotaUsed(APP.clientId, 'uploads') });
    const org = await yt.h.server.createOrg();
    const first = await yt.addChannel(org, 'firstrefused', { managedApp: true });
    const [refused] = await outcomes(yt, org, await postVideos(yt, org, first, 1, 'refused'));
    const midnight = pacificDay(new Date()).end.toISOString();
    assert.equal(refused!.status, 'failed');
    assert.equal(refused!.error, `youtube: provider_quota_exhausted: Google refused the upload: the app's daily YouTube quota is spent (The request cannot be completed because you have exceeded your quota. (quotaExceeded)); retryAt=${midnight}`);
    const inserts = () => yt.google.youtube.calls().filter((c) => c.method === 'POST' && c.path === '/upload/youtube/v3/videos').length;
    const insertsBefore = inserts();
    const other = await yt.h.server.createOrg();
    const second = await yt.addChannel(other, 'secondclosed', { managedApp: true });
    const [closed] = await outcomes(yt, other, await postVideos(yt, other, second, 1, 'closed'));
    assert.equal(closed!.error, `youtube: provider_quota_exhausted: Google says the app's YouTube upload quota (videos.insert calls) is spent for today; retryAt=${midnight}`);
    assert.equal(inserts(), insertsBefore, 'Google was not asked again');
    const pool = await usageOf(yt, other.orgId);
    assert.deepEqual([pool.exhausted, pool.usedUploads, pool.budgetUploads], [true, 100, 100]);
    assert.ok((pool.usedUnits as number) < 10_000, 'the units bucket is not marked');
  });
});
