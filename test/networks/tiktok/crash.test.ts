// TikTok video with real `crier worker` processes killed with SIGKILL mid-upload: the worker that
// takes over asks TikTok how many bytes it holds and resumes at the first chunk TikTok lacks — the
// same upload session (one init), each chunk received once, one publish.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { MB, startTikTokStack, type Creator, type TikTokStack } from './setup.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let s: TikTokStack;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startTikTokStack({ worker: false, env: { CRIER_TIKTOK_CREATOR_CAP: '100' } });
});
after(async () => {
  workers.killAll();
  await s.close();
});

/** A 30 MB video: three 10 MB chunks. */
async function createVideoPost(creator: Creator, name: string, tiktok: object = {}): Promise<{ postId: string; rawId: number; bytes: Buffer }> {
  const bytes = await paddedVideo(30 * MB);
  const url = await s.upload(name, bytes, 'video/mp4');
  const postId = await s.create(creator, { containers: [{ content: name, media: [{ url, filename: name }] }], tiktok });
  return { postId, rawId: decodeId(postId)!, bytes };
}

/** Kills the worker once the PUT of chunk `index` hangs (each test stalls another index). */
async function killWhenStalled(doomed: Awaited<ReturnType<typeof workers.start>>, index: number): Promise<void> {
  await until(async () => (s.tt.stalledChunks().includes(index) ? true : undefined), 60_000);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
}

/** What TikTok holds of the creator's one publish: its chunks by index, each received once. */
function onePublishOf(creator: Creator) {
  const publishes = s.tt.publishes().filter((p) => p.openId === creator.openId);
  assert.equal(publishes.length, 1, 'one upload session, one publish');
  assert.equal(s.tt.inits().filter((i) => i.openId === creator.openId).length, 1, 'one init');
  return publishes[0]!;
}

describe('TikTok uploads with real worker processes', { concurrency: false }, () => {
  test('killed while sending a chunk: the next worker sends that chunk again and no other', async () => {
    const ann = await s.addCreator('ann.crash');
    const { postId, bytes } = await createVideoPost(ann, 'midway.mp4');
    s.tt.stallChunk({ index: 2, when: 'unread', ms: 15_000 });
    await killWhenStalled(await workers.start(), 2);
    assert.deepEqual(s.tt.chunks().filter((c) => c.publishId === onePublishOf(ann).publishId).map((c) => c.index), [0, 1], 'the third chunk never arrived');

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 120_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const publish = onePublishOf(ann);
    assert.equal(post.socialAccounts[0].platformPostId, publish.publishId);
    assert.deepEqual(s.tt.chunks(publish.publishId).map((c) => [c.index, c.first]), [[0, 0], [1, 10 * MB], [2, 20 * MB]], 'each chunk once, in order');
    assert.equal(publish.video!.sha256, sha256(bytes), 'TikTok holds the video exactly');
    const resumeCheck = s.tt.statusPolls(publish.publishId)[0]!;
    assert.equal(resumeCheck.status, 'PROCESSING_UPLOAD', 'the new worker asked TikTok what it holds before sending');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed after TikTok received a chunk but before its answer: the next worker resumes at the chunk after it', async () => {
    const bo = await s.addCreator('bo.crash');
    const { postId, rawId, bytes } = await createVideoPost(bo, 'answered.mp4', { postMode: 'DIRECT_POST', privacyLevel: 'SELF_ONLY' });
    s.tt.stallChunk({ index: 1, when: 'unanswered', ms: 15_000 });
    await killWhenStalled(await workers.start(), 1);
    const { rows } = await s.h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId]);
    assert.equal(rows[0].checkpoint.sent, 1, 'Crier\'s checkpoint is a chunk behind TikTok');
    assert.equal(s.tt.chunks(onePublishOf(bo).publishId).length, 2, 'TikTok holds two chunks');

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 120_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const publish = onePublishOf(bo);
    assert.deepEqual(s.tt.chunks(publish.publishId).map((c) => c.index), [0, 1, 2], 'chunk 1 was not sent again');
    assert.equal(publish.video!.sha256, sha256(bytes));
    assert.equal(publish.status, 'PUBLISH_COMPLETE');
    const { rows: ledger } = await s.h.server.db.query(`SELECT count(*)::int AS n FROM network_ledger WHERE subject = $1`, [bo.openId]);
    assert.equal(ledger[0].n, 1, 'admitted under the creator cap once: the resumed steps do not count again');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
