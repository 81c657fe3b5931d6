// Pinterest video pins with real `crier worker` processes killed with SIGKILL: during Pinterest's
// processing wait, and with the upload form in flight. The worker that takes over resumes from the
// stored checkpoint — the same registered media, no second registration — and one pin is created.
// A large video goes up as one streamed form, the worker's memory flat.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { createPost, media, pinOf, startPinterestSetup, type PinterestSetup } from './setup.ts';

const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let s: PinterestSetup;
const workers = workerProcesses(() => s.h.stack.env);

before(async () => {
  s = await startPinterestSetup({ worker: false });
});
after(async () => {
  workers.killAll();
  await s.close();
});

/** The stored checkpoint of the post's target, once `ready` says it has got there. */
async function checkpointWhen(postId: string, ready: (cp: any) => boolean): Promise<any> {
  return until(async () => {
    const { rows } = await s.h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [decodeId(postId)]);
    const cp = rows[0]?.checkpoint;
    return cp && ready(cp) ? cp : undefined;
  }, 60_000);
}

/** Resident memory of a process, in bytes (Linux /proc). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

describe('Pinterest video pins with real worker processes', { concurrency: false }, () => {
  test('a 200 MB video is sent as one streamed form while the worker\'s memory stays flat', async () => {
    const healthy = await workers.start();
    // A small video first, so that what a first upload loads (code, connections) is in the baseline.
    const warmUp = await createPost(s, { containers: [{ content: 'warm-up', media: [await media(s, 'warm.mp4', await paddedVideo(2 * MB), 'video/mp4')] }], pinterest: { board_id: s.board.id } });
    pinOf(s, await s.h.stack.waitForPost(s.org, warmUp, undefined, 60_000));
    const bytes = await paddedVideo(200 * MB);
    const postId = await createPost(s, { containers: [{ content: 'a big one', media: [await media(s, 'big.mp4', bytes, 'video/mp4')] }], pinterest: { board_id: s.board.id } });
    const pid = healthy.child.pid!;
    const before = await rssOf(pid);
    let highest = before;
    const sampler = setInterval(() => void rssOf(pid).then((rss) => { highest = Math.max(highest, rss); }, () => {}), 25);
    try {
      pinOf(s, await s.h.stack.waitForPost(s.org, postId, undefined, 180_000));
    } finally {
      clearInterval(sampler);
    }
    const uploaded = s.pin.media().find((m) => m.upload?.bytes === 200 * MB)!;
    assert.equal(uploaded.upload!.sha256, sha256(bytes), 'Pinterest received the 200 MB exactly');
    const growth = highest - before;
    console.log(`worker RSS ${(before / MB).toFixed(0)} MB before, highest ${(highest / MB).toFixed(0)} MB during the 200 MB upload: +${(growth / MB).toFixed(1)} MB`);
    // Holding the video whole would add at least its 200 MB; a streamed form adds the allocator's and the
    // garbage collector's lag, which depends on the machine's load (+21.5 MB for 150 MB, +63 MB for 200 MB
    // on a shared 2-core machine). The bound is half the video, as LinkedIn's.
    assert.ok(growth < 100 * MB, `the worker grew by ${(growth / MB).toFixed(1)} MB uploading 200 MB`);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed while Pinterest processes the video: the next worker waits on, and pins it once', async () => {
    const bytes = await paddedVideo(4 * MB);
    const clip = await media(s, 'processing.mp4', bytes, 'video/mp4');
    const postId = await createPost(s, { containers: [{ content: 'killed while processing', media: [clip] }], pinterest: { board_id: s.board.id } });
    s.pin.holdProcessing(true);
    const registeredBefore = s.pin.media().length;
    const doomed = await workers.start();
    const cp = await checkpointWhen(postId, (c) => c.video?.uploaded === true && (c.video.polls ?? 0) >= 1);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    assert.equal(s.pin.pins().filter((p) => p.description === 'killed while processing').length, 0, 'no pin while processing');

    const healthy = await workers.start();
    s.pin.holdProcessing(false);
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 90_000);
    const pin = pinOf(s, post);
    const registered = s.pin.media().slice(registeredBefore);
    assert.deepEqual(registered.map((m) => m.id), [cp.video.mediaId], 'one registration, resumed by the second worker');
    assert.deepEqual([registered[0]!.uploads, registered[0]!.upload!.sha256], [1, sha256(bytes)], 'uploaded once, whole');
    assert.equal((pin.mediaSource as any).media_id, cp.video.mediaId);
    assert.equal(s.pin.pins().filter((p) => p.description === 'killed while processing').length, 1, 'pinned once');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed with the upload form in flight: the next worker uploads it to the same media, and pins it once', async () => {
    const bytes = await paddedVideo(6 * MB);
    const clip = await media(s, 'uploading.mp4', bytes, 'video/mp4');
    const postId = await createPost(s, { containers: [{ content: 'killed while uploading', media: [clip] }], pinterest: { board_id: s.board.id } });
    // The upload gets no answer for a while: the worker dies with it in flight.
    s.pin.failNext({ status: 500, method: 'POST', path: '/media-upload/', delayMs: 20_000 });
    const registeredBefore = s.pin.media().length;
    const doomed = await workers.start();
    const cp = await checkpointWhen(postId, (c) => Boolean(c.video?.mediaId) && c.video.uploaded === false);
    // The next step sends the form (a few MB on loopback), whose answer the emulator holds back.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const healthy = await workers.start();
    const post = await s.h.stack.waitForPost(s.org, postId, undefined, 90_000);
    const pin = pinOf(s, post);
    const registered = s.pin.media().slice(registeredBefore);
    const uploads = s.pin.calls().filter((c) => c.path === '/media-upload/').slice(-2).map((c) => c.status);
    assert.deepEqual(uploads, [500, 204], 'the first form was in flight (held, then answered 500 to no one) when the worker died');
    assert.deepEqual(registered.map((m) => m.id), [cp.video.mediaId], 'no second registration');
    assert.deepEqual([registered[0]!.uploads, registered[0]!.upload!.sha256], [1, sha256(bytes)]);
    assert.equal((pin.mediaSource as any).media_id, cp.video.mediaId);
    assert.equal(s.pin.pins().filter((p) => p.description === 'killed while uploading').length, 1, 'pinned once');
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
