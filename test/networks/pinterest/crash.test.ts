// Pinterest video pins with real `crier worker` processes killed with SIGKILL: during Pinterest's
// processing wait, and with the upload form in flight. The worker that takes over resumes from the
// stored checkpoint — the same registered media, no second registration — and one pin is created.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/ids.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo } from '../../media/helpers.ts';
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

describe('Pinterest video pins with real worker processes', { concurrency: false }, () => {
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
