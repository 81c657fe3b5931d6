// TikTok's 24-hour cap on distinct creators who direct-post through the app, kept by Crier in the
// network ledger (table network_ledger, pool direct_post_creators) across `crier worker` processes:
// the creator past the cap is refused with the time a slot frees, a creator inside the window always
// posts, a slot frees 24 hours after the oldest creator's last post (the ledger's rows aged by SQL: the
// clock the test controls), and two workers admitting new creators at once never exceed the cap.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { createLedger } from '../../../src/accounts/ledger.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { MB, startTikTokStack, type Creator, type TikTokStack } from './setup.ts';

const CAP = 3;
const DAY = "interval '24 hours 1 second'";

let s: TikTokStack;
let video: Buffer;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  // TikTok's own cap is higher here: what is refused is refused by Crier, before any init. One
  // destination in flight per worker process, so that racing posts spread over both.
  s = await startTikTokStack({ worker: false, creatorCap: 100, env: { CRIER_TIKTOK_CREATOR_CAP: String(CAP), CRIER_PUBLISH_CONCURRENCY: '1' } });
  video = await paddedVideo(1 * MB);
  await workers.start();
  await workers.start();
});
after(async () => {
  workers.killAll();
  await s.close();
});

const directPost = async (creator: Creator) => {
  const url = await s.upload('d.mp4', video, 'video/mp4');
  return s.create(creator, { containers: [{ content: `by ${creator.username}`, media: [{ url, filename: 'd.mp4' }] }], tiktok: { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY' } });
};
const outcome = async (postId: string) => (await s.h.stack.waitForPost(s.org, postId, undefined, 60_000)).socialAccounts[0];
const initsBy = (creator: Creator) => s.tt.inits().filter((i) => i.openId === creator.openId).length;
const ledgerAt = async (creator: Creator) => {
  const { rows } = await s.h.server.db.query(`SELECT max(at) AS at FROM network_ledger WHERE network = 'tiktok' AND pool = 'direct_post_creators' AND subject = $1`, [creator.openId]);
  return rows[0].at as Date;
};

describe('the creator cap of direct posts', { concurrency: false }, () => {
  const creators: Creator[] = [];

  test(`${CAP} creators post; the next is refused with reached_active_user_cap and when a slot frees; no init is sent for it; the usage figures say so`, async () => {
    for (let i = 0; i < CAP; i++) {
      const creator = await s.addCreator(`cap.creator${i}`);
      creators.push(creator);
      assert.equal((await outcome(await directPost(creator))).status, 'published');
    }
    const late = await s.addCreator('cap.late');
    const refused = await outcome(await directPost(late));
    assert.equal(refused.status, 'failed');
    const freesAt = new Date((await ledgerAt(creators[0]!)).getTime() + 24 * 3600_000).toISOString();
    assert.equal(refused.error, `tiktok: reached_active_user_cap: ${CAP} creators already direct-posted through this app in the last 24 hours, `
      + `TikTok's cap for it; a slot frees up at ${freesAt} (or use postMode MEDIA_UPLOAD, which the cap does not count)`);
    assert.equal(initsBy(late), 0);
    creators.push(late);
    const usage = await s.h.server.networks.usage('tiktok', createLedger(s.h.server.db, 'tiktok'), s.org.orgId);
    assert.deepEqual(usage, { directPostCreators: { cap: CAP, windowHours: 24, active: CAP, activeInOrganization: CAP, slotFreesAt: freesAt } });
    const other = await s.h.server.createOrg();
    assert.equal(((await s.h.server.networks.usage('tiktok', createLedger(s.h.server.db, 'tiktok'), other.orgId)) as any).directPostCreators.activeInOrganization, 0);
  });

  test('a creator inside the window still posts, and an inbox draft is never counted', async () => {
    assert.equal((await outcome(await directPost(creators[1]!))).status, 'published');
    const url = await s.upload('i.mp4', video, 'video/mp4');
    const draft = await s.create(creators[CAP]!, { containers: [{ content: 'draft', media: [{ url, filename: 'i.mp4' }] }] });
    assert.equal((await outcome(draft)).status, 'published');
  });

  test('24 hours after the oldest creator\'s last post, its slot frees for the next creator', async () => {
    await s.h.server.db.query(`UPDATE network_ledger SET at = at - ${DAY} WHERE subject = $1`, [creators[0]!.openId]);
    const late = creators[CAP]!;
    const post = await outcome(await directPost(late));
    assert.equal(post.status, 'published', post.error);
    assert.equal(initsBy(late), 2, 'the draft and this direct post');
    // The window is full again: the creator whose slot freed is now the one refused.
    const again = await outcome(await directPost(creators[0]!));
    assert.match(again.error, /^tiktok: reached_active_user_cap: 3 creators already direct-posted/);
  });

  test('two worker processes admitting new creators at once never let more than the cap through', async () => {
    await s.h.server.db.query(`UPDATE network_ledger SET at = at - ${DAY}`);
    const racers: Creator[] = [];
    for (let i = 0; i < 2 * CAP; i++) racers.push(await s.addCreator(`race.creator${i}`));
    const postIds = await Promise.all(racers.map(directPost));
    const outcomes = await Promise.all(postIds.map(outcome));
    const published = outcomes.filter((o) => o.status === 'published');
    assert.equal(published.length, CAP, JSON.stringify(outcomes.map((o) => [o.status, o.error])));
    assert.ok(outcomes.filter((o) => o.status === 'failed').every((o) => /^tiktok: reached_active_user_cap: /.test(o.error)));
    const { rows } = await s.h.server.db.query(
      `SELECT count(DISTINCT subject)::int AS n FROM network_ledger WHERE network = 'tiktok' AND pool = 'direct_post_creators' AND at > now() - interval '24 hours'`,
    );
    assert.equal(rows[0].n, CAP, 'the ledger holds the cap\'s worth of creators');
    const attempted = racers.filter((r) => initsBy(r) > 0);
    assert.equal(attempted.length, CAP, 'TikTok saw only the admitted creators');
    const { rows: claimedBy } = await s.h.server.db.query(
      'SELECT count(DISTINCT a.worker_id)::int AS n FROM attempts a JOIN targets t ON t.id = a.target_id WHERE t.post_id = ANY($1::bigint[])',
      [postIds.map((id) => decodeId(id))],
    );
    assert.equal(claimedBy[0].n, 2, 'both worker processes admitted racing creators');
  });
});
