// The Facebook adapter's video steps against the emulator, step by step as the engine runs them
// (each PublishWait's checkpoint fed back): Meta reports the upload phase complete once the bytes are
// in, before finish, so the finish call (the one that publishes) must still be made; a crash around
// it is judged from processing and publishing, never from the upload phase; and each call goes to the
// host Meta's guides name (graph-video for a feed video's session, rupload for a Reel's bytes).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../../emulators/facebook/server.ts';
import { createFacebookAdapter, type FacebookAdapterOptions } from '../../../src/networks/facebook/adapter.ts';
import { facebookHosts } from '../../../src/networks/facebook/index.ts';
import { FACEBOOK_SCOPES } from '../../../src/networks/facebook/oauth.ts';
import { PublishWait } from '../../../src/core/errors.ts';
import type { MediaSource, PublishInput } from '../../../src/networks/contract.ts';
import type { PartRef } from '../../../src/core/post.ts';

const APP = { clientId: 'crier-meta', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };
const MB = 1024 * 1024;
/** Enough steps for start, two transfers, finishing, finish and a few polls; a video never finished exhausts them. */
const MAX_STEPS = 25;

let fb: FacebookEmulator;
let pageId: string;
let token: string;
let port: string;

before(async () => {
  fb = await startFacebookEmulator();
  fb.addApp(APP);
  pageId = fb.addUser({ pages: [{ name: 'Acme', username: 'acme' }] }).pageIds[0]!;
  token = fb.issuePageToken(pageId, APP.clientId, FACEBOOK_SCOPES);
  port = new URL(fb.url).port;
  fb.pages.setVideoProcessingMs(0);
});
after(async () => {
  await fb.close();
});

/** The emulator under two names: the Graph API as 127.0.0.1, the video hosts as localhost. */
const graph = () => `http://127.0.0.1:${port}`;
const other = () => `http://localhost:${port}`;

function sourceOf(bytes: Buffer): MediaSource {
  return {
    size: bytes.length,
    contentType: 'video/mp4',
    read: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
    bytes: async () => bytes,
  };
}

function inputFor(bytes: Buffer, block: Record<string, unknown>, checkpoint?: Record<string, unknown>): PublishInput {
  return {
    account: { id: 1, orgId: 1, network: 'facebook', username: 'acme', networkUniqueId: pageId, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    containers: [{ content: 'Our clip', media: [{ url: 'https://crier.example.com/media/x/clip.mp4', filename: 'clip.mp4' }] }],
    block,
    fetchMedia: () => { throw new Error('no cover in these tests'); },
    openMedia: async () => sourceOf(bytes),
    userFetch: fetch,
    saveTokens: async () => {},
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
    ...(checkpoint ? { checkpoint } : {}),
  };
}

/**
 * Runs the steps as the engine does, without waiting out the delays, until the part is published or
 * `stopWhen` says to stop at a checkpoint (a crash there); throws when the steps never end.
 */
async function steps(options: FacebookAdapterOptions, input: PublishInput, stopWhen?: (cp: Record<string, unknown>) => boolean): Promise<{ ref?: PartRef; checkpoint?: Record<string, unknown> }> {
  const adapter = createFacebookAdapter({ maxProcessingMs: 3_600_000, ...options });
  let checkpoint = input.checkpoint;
  for (let i = 0; i < MAX_STEPS; i++) {
    const prepared = await adapter.prepare({ ...input, ...(checkpoint ? { checkpoint } : {}) });
    try {
      return { ref: await prepared.publishPart(0, {}, undefined) };
    } catch (error) {
      if (!(error instanceof PublishWait) || !error.checkpoint) throw error;
      checkpoint = error.checkpoint;
      if (stopWhen?.(checkpoint)) return { checkpoint };
    }
  }
  throw new Error(`not published after ${MAX_STEPS} steps: ${JSON.stringify(checkpoint)}`);
}

const callsOf = (videoId: string, path: string) => fb.pages.calls().filter((c) => c.path === path && (c.params.video_id === videoId || c.params.upload_session_id === `${videoId}_s` || c.path.endsWith(`/${videoId}`)));
const newest = () => fb.pages.videos().at(-1)!;
const videoOf = (cp: Record<string, unknown> | undefined) => (cp as { video: { id: string; finishing?: boolean; finished?: boolean } }).video;

describe('the emulator reports a video\'s phases as Meta does', () => {
  it('uploading complete once the bytes are in, before finish; processing and publishing only after it', async () => {
    const bytes = randomBytes(MB / 2);
    const { checkpoint } = await steps({ apiUrl: fb.url }, inputFor(bytes, { publishAsReel: true }), (cp) => videoOf(cp).finishing === true);
    const id = videoOf(checkpoint).id;
    const status = async () => ((await (await fetch(`${fb.url}/v23.0/${id}?fields=status`, { headers: { authorization: `OAuth ${token}` } })).json()) as { status: Record<string, unknown> }).status;
    assert.deepEqual(await status(), {
      video_status: 'upload_complete',
      uploading_phase: { status: 'complete', bytes_transferred: bytes.length },
      processing_phase: { status: 'not_started' },
      publishing_phase: { status: 'not_started' },
    });
    await steps({ apiUrl: fb.url }, inputFor(bytes, { publishAsReel: true }, checkpoint));
    const done = await status();
    assert.equal(done.video_status, 'ready');
    assert.deepEqual(done.processing_phase, { status: 'complete' });
    assert.equal((done.publishing_phase as { publish_status: string }).publish_status, 'published');
  });
});

describe('Facebook videos are finished, and published', () => {
  it('a Reel: its bytes to rupload\'s host at /video-upload/{version}/{id}, then finish with video_state=PUBLISHED, then published', async () => {
    const bytes = randomBytes(MB / 2);
    const { ref } = await steps({ apiUrl: graph(), ruploadUrl: other() }, inputFor(bytes, { publishAsReel: true }));
    const video = newest();
    assert.equal(ref?.platformId, video.id);
    const reelCalls = callsOf(video.id, `/${pageId}/video_reels`).map((c) => [c.params.upload_phase, c.params.video_state, c.host]);
    assert.deepEqual(reelCalls, [['finish', 'PUBLISHED', `127.0.0.1:${port}`]], 'finished once, on the Graph API host');
    const upload = callsOf(video.id, `/video-upload/v23.0/${video.id}`);
    assert.deepEqual(upload.map((c) => [c.params.offset, c.params.file_size, c.host]), [['0', String(bytes.length), `localhost:${port}`]]);
    assert.equal(fb.pages.posts().filter((p) => p.id === video.id && p.kind === 'reel').length, 1, 'published');
  });

  it('a feed video: its upload session (start, transfers, finish) on the video host, the status on the Graph API host; published once', async () => {
    const bytes = randomBytes(MB + MB / 2);
    const { ref } = await steps({ apiUrl: graph(), videoUrl: other() }, inputFor(bytes, {}));
    const video = newest();
    assert.equal(ref?.platformId, video.id);
    const session = fb.pages.calls().filter((c) => c.path === `/${pageId}/videos` && (c.params.upload_session_id === `${video.id}_s` || c.params.file_size === String(bytes.length)));
    assert.deepEqual(session.map((c) => [c.params.upload_phase, c.host]), [['start', `localhost:${port}`], ['transfer', `localhost:${port}`], ['transfer', `localhost:${port}`], ['finish', `localhost:${port}`]]);
    assert.equal(video.params.description, 'Our clip');
    assert.equal(fb.pages.posts().filter((p) => p.id === video.id && p.kind === 'video').length, 1, 'published');
  });

  it('the real hosts: the Graph API, graph-video for feed videos, rupload for Reel and Story bytes; a base URL replaces all three', () => {
    assert.deepEqual(facebookHosts(undefined), { apiUrl: 'https://graph.facebook.com', videoUrl: 'https://graph-video.facebook.com', ruploadUrl: 'https://rupload.facebook.com' });
    assert.deepEqual(facebookHosts('http://127.0.0.1:1'), { apiUrl: 'http://127.0.0.1:1', videoUrl: 'http://127.0.0.1:1', ruploadUrl: 'http://127.0.0.1:1' });
  });
});

describe('Facebook videos after a crash around finish', () => {
  const adapter = () => createFacebookAdapter({ apiUrl: fb.url });
  const reconcile = async (bytes: Buffer, checkpoint: Record<string, unknown>) => (await adapter().prepare(inputFor(bytes, { publishAsReel: true }, checkpoint))).reconcile(0, {}, undefined);

  it('crashed before the finish call: reconcile finds nothing published, and the resumed steps finish it and publish', async () => {
    const bytes = randomBytes(MB / 2);
    const { checkpoint } = await steps({ apiUrl: fb.url }, inputFor(bytes, { publishAsReel: true }), (cp) => videoOf(cp).finishing === true);
    const id = videoOf(checkpoint).id;
    assert.equal(await reconcile(bytes, checkpoint!), 'absent', 'the bytes are in, but nothing was finished: not published');
    const { ref } = await steps({ apiUrl: fb.url }, inputFor(bytes, { publishAsReel: true }, checkpoint));
    assert.equal(ref?.platformId, id);
    assert.deepEqual(callsOf(id, `/${pageId}/video_reels`).map((c) => c.params.upload_phase), ['finish']);
    assert.equal(fb.pages.posts().filter((p) => p.id === id).length, 1);
  });

  it('crashed after the finish call, before its step was stored: the resumed steps do not finish again, and reconcile says published once Meta does', async () => {
    fb.pages.setVideoProcessingMs(60_000);
    try {
      const bytes = randomBytes(MB / 2);
      const { checkpoint } = await steps({ apiUrl: fb.url }, inputFor(bytes, { publishAsReel: true }), (cp) => videoOf(cp).finishing === true);
      const id = videoOf(checkpoint).id;
      // The finish the crashed worker made (its answer lost with it).
      const finish = await fetch(`${fb.url}/v23.0/${pageId}/video_reels`, { method: 'POST', headers: { authorization: `OAuth ${token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ upload_phase: 'finish', video_id: id, video_state: 'PUBLISHED', description: 'Our clip' }).toString() });
      assert.equal(finish.status, 200);
      assert.equal(await reconcile(bytes, checkpoint!), 'absent', 'still processing: not yet published');
      const resumed = await steps({ apiUrl: fb.url }, inputFor(bytes, { publishAsReel: true }, checkpoint), (cp) => videoOf(cp).finished === true);
      assert.equal(videoOf(resumed.checkpoint).finished, true);
      assert.deepEqual(callsOf(id, `/${pageId}/video_reels`).map((c) => c.params.upload_phase), ['finish'], 'finished once');
      fb.pages.setVideoProcessingMs(0);
      fb.clock.advance(60_000);
      const ref = await reconcile(bytes, checkpoint!);
      assert.notEqual(ref, 'absent');
      assert.equal((ref as PartRef).platformId, id);
    } finally {
      fb.pages.setVideoProcessingMs(0);
    }
  });
});
