// The managed-key daily pool (spec rule 7) with a real database and real publishing: accounts
// connected through the operator's app share one daily budget, admitted at execution time under one
// lock shared by every worker process. What a user sees: which destinations publish, the reason code
// and retryAt of the others, what YouTube received, and the usage figures.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPool } from '../../../src/db/pool.ts';
import { createLedger } from '../../../src/publishing/ledger.ts';
import { youtube } from '../../../src/networks/youtube/index.ts';
import { admitUpload, pacificDay } from '../../../src/networks/youtube/pool.ts';
import type { YoutubeSettings } from '../../../src/networks/youtube/settings.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { paddedVideo } from '../../media/helpers.ts';
import { APP, KIB, startYoutubeHarness, type YoutubeHarness } from './setup.ts';

const UPLOAD = 1600;
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

const ledgerUnits = async (yt: YoutubeHarness, subject?: string) => Number((await yt.h.server.db.query(
  `SELECT coalesce(sum(units), 0) AS units FROM network_ledger WHERE network = 'youtube' AND pool = 'uploads'${subject ? ' AND subject = $1' : ''}`, subject ? [subject] : [],
)).rows[0].units);

const settingsOf = (yt: YoutubeHarness) => yt.h.server.config.networks.youtube as YoutubeSettings;

describe('a daily budget of three uploads, two worker processes', { concurrency: false }, () => {
  let yt: YoutubeHarness;
  let org: TestOrg;
  let managed: TestAccount & { channelId: string };
  const workers = workerProcesses(() => yt.h.stack.env);

  before(async () => {
    // Three uploads and what their polls cost fit; a fourth does not.
    yt = await startYoutubeHarness({ CRIER_YOUTUBE_POOL_UNITS: String(3 * UPLOAD + 1000), CRIER_YOUTUBE_POOL_PACING: 'off' }, { worker: false });
    org = await yt.h.server.createOrg();
    managed = await yt.addChannel(org, 'managedone', { managedApp: true });
  });
  after(async () => {
    workers.killAll();
    await yt.close();
  });

  test('five posts due at once: exactly three publish, two fail with daily_limit_reached and the Pacific midnight as retryAt', async () => {
    const ids = await postVideos(yt, org, managed, 5, 'burst');
    await Promise.all([workers.start(), workers.start()]);
    const results = await outcomes(yt, org, ids);
    assert.equal(results.filter((r) => r.status === 'published').length, 3, JSON.stringify(results));
    const denied = results.filter((r) => r.status === 'failed');
    assert.equal(denied.length, 2);
    const midnight = pacificDay(new Date()).end;
    for (const { error } of denied) {
      assert.match(error!, /^youtube: daily_limit_reached: the shared YouTube quota has \d+ of 5800 units left today and this upload needs 1600; retryAt=(\S+)$/);
      assert.equal(/retryAt=(\S+)$/.exec(error!)![1], midnight.toISOString());
    }
    assert.ok(midnight.getTime() > Date.now());
    assert.equal(yt.google.youtube.videos().filter((v) => String(v.snippet.title).startsWith('burst')).length, 3, 'YouTube got three videos');
    assert.equal(yt.google.youtube.sessions().length, 3, 'the denied ones never opened a session');
    const used = await ledgerUnits(yt);
    assert.ok(used >= 3 * UPLOAD && used < 3 * UPLOAD + 50, `ledger: ${used} units (three uploads and their polls)`);
  });

  test('an account on the organization\'s own app is neither limited nor counted', async () => {
    const byok = await yt.addChannel(org, 'ownapp');
    const before = await ledgerUnits(yt);
    const [result] = await outcomes(yt, org, await postVideos(yt, org, byok, 1, 'own app'));
    assert.equal(result!.status, 'published', result!.error ?? '');
    assert.equal(await ledgerUnits(yt), before);
    assert.equal(await ledgerUnits(yt, `account:${byok.rawId}`), 0);
  });

  test('after a restart of every worker the day\'s count stands, and the usage figures say so', async () => {
    workers.killAll();
    await workers.start();
    const [result] = await outcomes(yt, org, await postVideos(yt, org, managed, 1, 'after restart'));
    assert.equal(result!.status, 'failed');
    assert.match(result!.error!, /^youtube: daily_limit_reached: /);
    const usage = await youtube.usage!({ settings: settingsOf(yt), allowLoopbackFetch: true, publicBaseUrl: '' }, createLedger(yt.h.server.db, 'youtube'), org.orgId);
    const pool = usage.pool as Record<string, unknown>;
    assert.equal(pool.budgetUnits, 5800);
    assert.equal(pool.releasedUnits, 5800, 'pacing is off');
    assert.equal(pool.usedUnits, await ledgerUnits(yt));
    assert.equal(pool.orgUsedUnits, pool.usedUnits);
    assert.equal(pool.orgShareUnits, 5800);
    assert.equal(pool.resetsAt, pacificDay(new Date()).end.toISOString());
    // The same figures, as an organization reads them: GET /v1/usage.
    const served = await yt.h.server.request('GET', '/v1/usage', { key: org.key });
    assert.equal(served.status, 200, JSON.stringify(served.body));
    assert.deepEqual(served.body.data.networks.youtube.pool, pool);
  });
});

describe('an organization\'s share, pacing, and Google\'s own quota', { concurrency: false }, () => {
  let yt: YoutubeHarness;

  before(async () => {
    // 2 % of 100,000 units: one upload (and its polls) per organization a day.
    yt = await startYoutubeHarness({ CRIER_YOUTUBE_POOL_UNITS: '100000', CRIER_YOUTUBE_POOL_ORG_SHARE: '2', CRIER_YOUTUBE_POOL_PACING: 'off' });
  });
  after(async () => yt.close());

  test('an organization past its share fails with org_limit_reached while the pool has room', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'sharer', { managedApp: true });
    const results = await outcomes(yt, org, await postVideos(yt, org, account, 2, 'share'));
    assert.deepEqual(results.map((r) => r.status).sort(), ['failed', 'published']);
    const error = results.find((r) => r.status === 'failed')!.error!;
    assert.match(error, /^youtube: org_limit_reached: this organization used 16\d\d of its 2000 daily YouTube units and this upload needs 1600; retryAt=/);
    assert.ok(error.endsWith(`retryAt=${pacificDay(new Date()).end.toISOString()}`));
  });

  test('paced: what is not released yet is release_pending, with the time it will be as retryAt; nothing is recorded', async () => {
    const org = await yt.h.server.createOrg();
    const account = await yt.addChannel(org, 'paced', { managedApp: true });
    const settings = { ...settingsOf(yt).pool, budgetUnits: 1_000_000, orgSharePercent: 100, pacing: true, burstUnits: 0 };
    const day = pacificDay(new Date());
    const released = (1_000_000 * (Date.now() - day.start.getTime())) / (day.end.getTime() - day.start.getTime());
    const before = await ledgerUnits(yt);
    const denial = await admitUpload(createLedger(yt.h.server.db, 'youtube'), settings, { id: account.rawId, orgId: org.orgId }, Math.ceil(released) + 5000).then(() => undefined, (e: Error) => e);
    assert.match(denial!.message, /^youtube: release_pending: the shared YouTube quota is released through the day; \d+ of 1000000 units are released so far and \d+ are spent; retryAt=(\S+)$/);
    const retryAt = Date.parse(/retryAt=(\S+)$/.exec(denial!.message)![1]!);
    assert.ok(retryAt > Date.now() && retryAt < Date.now() + 20 * 60_000, `retryAt ${new Date(retryAt).toISOString()} is minutes away`);
    assert.equal(await ledgerUnits(yt), before);
  });

  test('a ledger that cannot be reached denies with quota_unavailable', async () => {
    const closed = createPool(yt.h.server.databaseUrl, 1);
    await closed.end();
    const denial = await admitUpload(createLedger(closed, 'youtube'), settingsOf(yt).pool, { id: 1, orgId: 1 }, UPLOAD).then(() => undefined, (e: Error) => e);
    assert.match(denial!.message, /^youtube: quota_unavailable: the shared YouTube quota could not be checked \(.+\); try again$/);
  });

  test('Google\'s quotaExceeded fails the upload with provider_quota_exhausted and closes the pool until the reset', async () => {
    yt.google.youtube.setQuota({ dailyUnits: yt.google.youtube.quotaUsed(APP.clientId) });
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
    assert.equal(closed!.error, `youtube: provider_quota_exhausted: Google says the app's YouTube quota is spent for today; retryAt=${midnight}`);
    assert.equal(inserts(), insertsBefore, 'Google was not asked again');
    const usage = await youtube.usage!({ settings: settingsOf(yt), allowLoopbackFetch: true, publicBaseUrl: '' }, createLedger(yt.h.server.db, 'youtube'), other.orgId);
    assert.deepEqual([(usage.pool as any).exhausted, (usage.pool as any).usedUnits], [true, 100_000]);
  });
});
