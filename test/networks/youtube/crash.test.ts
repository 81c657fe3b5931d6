// YouTube uploads with real `crier worker` processes killed with SIGKILL: while YouTube holds the
// answer to a chunk it has already taken (the checkpoint is one chunk behind the session), and while
// it holds the answer to the last chunk (the session is complete, the video exists, Crier does not
// know its id). The next worker asks the session what it has (`bytes */TOTAL`) and goes on from
// there: no byte range is taken twice, one session, one video.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { workerProcesses } from '../../helpers/process.ts';
import { until } from '../../helpers/until.ts';
import { paddedVideo } from '../../helpers/media.ts';
import { CHUNK, KIB, sha256, startYoutubeHarness, type YoutubeHarness } from './setup.ts';

let yt: YoutubeHarness;
let org: TestOrg;
let channel: TestAccount & { channelId: string };
const workers = workerProcesses(() => yt.h.stack.env);

before(async () => {
  yt = await startYoutubeHarness({}, { worker: false });
  yt.google.youtube.setQuota({ dailyUnits: 1e9 });
  org = await yt.h.server.createOrg();
  channel = await yt.addChannel(org, 'crashchannel');
});
after(async () => {
  workers.killAll();
  await yt.close();
});

async function videoPost(bytes: Buffer, title: string): Promise<{ postId: string; rawId: number }> {
  const url = await yt.video(org, bytes);
  const postId = await yt.create(org, { accounts: [channel.id], containers: [{ content: title, media: [{ url, filename: 'clip.mp4' }] }], youtube: { title } });
  return { postId, rawId: decodeId(postId)! };
}

const checkpointOf = async (rawId: number) => (await yt.h.server.db.query('SELECT checkpoint FROM targets WHERE post_id = $1', [rawId])).rows[0]?.checkpoint;
const sessionOf = (total: number) => yt.google.youtube.sessions().find((s) => s.total === total);

/** Chunks one after another from 0 to the end, none taken twice. */
function assertContiguous(chunks: { start: number; end: number }[], total: number): void {
  let next = 0;
  for (const chunk of chunks) {
    assert.equal(chunk.start, next, `chunk ${JSON.stringify(chunk)} follows byte ${next - 1}`);
    next = chunk.end + 1;
  }
  assert.equal(next, total);
}

describe('YouTube uploads with real worker processes', { concurrency: false }, () => {
  test('killed while a chunk YouTube took is unanswered: the next worker asks the session and resumes after it', async () => {
    const bytes = await paddedVideo(10 * CHUNK + 1000);
    const { postId, rawId } = await videoPost(bytes, 'resumed after a crash');
    // YouTube takes chunk 4 (bytes 1 MiB..1.25 MiB) and holds its answer: the worker dies waiting.
    yt.google.youtube.holdAfterChunk(4, 30_000);
    const doomed = await workers.start();
    await until(async () => ((await checkpointOf(rawId))?.received === 4 * CHUNK ? true : undefined), 30_000);
    await until(async () => (sessionOf(bytes.length)?.received === 5 * CHUNK ? true : undefined), 30_000);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    assert.equal((await checkpointOf(rawId)).received, 4 * CHUNK, 'the checkpoint is one chunk behind the session');

    const healthy = await workers.start();
    const post = await yt.h.stack.waitForPost(org, postId, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const session = sessionOf(bytes.length)!;
    assert.equal(session.queries, 1, 'the session was asked once what it had');
    assertContiguous(session.chunks, bytes.length);
    assert.equal(session.chunks.length, 11, 'each chunk was taken once: the held one was not sent again');
    const sent = yt.google.youtube.calls().filter((c) => c.method === 'PUT' && c.contentRange?.startsWith(`bytes ${4 * CHUNK}-`));
    assert.equal(sent.length, 1, 'the held chunk crossed the network once');
    const videos = yt.google.youtube.videos().filter((v) => v.snippet.title === 'resumed after a crash');
    assert.equal(videos.length, 1, 'one video');
    assert.equal(videos[0]!.sha256, sha256(bytes));
    assert.equal(post.socialAccounts[0].platformPostId, videos[0]!.id);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });

  test('killed after the last chunk was taken: the session\'s answer names the video, and no second one is made', async () => {
    const bytes = await paddedVideo(3 * CHUNK + 10 * KIB);
    const { postId, rawId } = await videoPost(bytes, 'complete before the crash');
    yt.google.youtube.holdAfterChunk(3, 30_000);
    const sessionsBefore = yt.google.youtube.sessions().length;
    const doomed = await workers.start();
    await until(async () => (sessionOf(bytes.length)?.videoId ? true : undefined), 30_000);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    assert.equal((await checkpointOf(rawId)).videoId, undefined, 'Crier did not learn the video id before the crash');

    const healthy = await workers.start();
    const post = await yt.h.stack.waitForPost(org, postId, undefined, 60_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    const videos = yt.google.youtube.videos().filter((v) => v.snippet.title === 'complete before the crash');
    assert.equal(videos.length, 1, 'one video');
    assert.equal(post.socialAccounts[0].platformPostId, videos[0]!.id);
    assert.equal(yt.google.youtube.sessions().length, sessionsBefore + 1, 'no second session');
    const session = sessionOf(bytes.length)!;
    assert.equal(session.queries, 1);
    assertContiguous(session.chunks, bytes.length);
    healthy.child.kill('SIGTERM');
    await healthy.exited;
  });
});
