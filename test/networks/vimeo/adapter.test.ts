// The Vimeo adapter against the emulator, step by step as the engine drives it (each PublishWait's
// checkpoint handed to the next prepare), without Crier around it: the chunking, and what reconcile
// says after a crash at each point — the video found or not, a comment found or not, and "cannot
// tell" when Vimeo cannot be read. Also when a 429 says to come back.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator } from '../../../emulators/vimeo/server.ts';
import { PublishError, PublishWait } from '../../../src/core/errors.ts';
import { createVimeoAdapter } from '../../../src/networks/vimeo/adapter.ts';
import { rateLimitWaitMs } from '../../../src/networks/vimeo/client.ts';
import { VIMEO_SCOPES } from '../../../src/networks/vimeo/oauth.ts';
import type { MediaSource, PreparedPublish, PublishInput } from '../../../src/networks/contract.ts';
import type { PartRef } from '../../../src/core/post.ts';

const APP = { clientId: 'crier-vimeo', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

function sourceOf(bytes: Buffer): MediaSource {
  return {
    size: bytes.length,
    contentType: 'video/mp4',
    read: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
    bytes: async () => bytes,
  };
}

describe('the Vimeo adapter, step by step', () => {
  let vm: VimeoEmulator;
  let token: string;
  let userId: string;
  const file = Buffer.from(Array.from({ length: 2500 }, (_, i) => i % 251));
  let opens = 0;

  before(async () => {
    vm = await startVimeoEmulator();
    vm.addApp(APP);
    vm.setTranscodeReads(0);
    const user = vm.addUser({ name: 'Ada' });
    userId = user.id;
    token = vm.oauth.issue(user.id, APP.clientId, VIMEO_SCOPES).accessToken;
  });
  after(() => vm.close());

  const inputFor = (texts: string[], title: string, checkpoint?: Record<string, unknown>): PublishInput => ({
    account: { id: 1, orgId: 1, network: 'vimeo', username: 'ada', networkUniqueId: userId, serviceUrl: null, accessToken: token, refreshToken: null, credential: null },
    containers: texts.map((content, i) => ({ content, media: i === 0 ? [{ url: 'https://media.example/v.mp4', filename: 'v.mp4' }] : [] })),
    block: { title },
    fetchMedia: () => { throw new Error('the adapter reads ranges'); },
    openMedia: async () => {
      opens += 1;
      return sourceOf(file);
    },
    userFetch: fetch,
    saveTokens: async () => {},
    ...(checkpoint ? { checkpoint } : {}),
    ledger: { withPool: () => { throw new Error('vimeo keeps no ledger'); }, read: () => { throw new Error('vimeo keeps no ledger'); } },
  });
  const adapter = () => createVimeoAdapter({ apiUrl: vm.url, chunkBytes: 1000, pollMs: 1 });

  /** Runs publishPart(0) through its waits as the engine would; the checkpoints seen, and the result. */
  async function drive(texts: string[], title: string, stopAt?: (cp: Record<string, unknown>) => boolean) {
    const reservation = { startedAt: new Date().toISOString() };
    const checkpoints: Record<string, unknown>[] = [];
    for (let step = 0; step < 50; step++) {
      const prepared = await adapter().prepare(inputFor(texts, title, checkpoints.at(-1)));
      try {
        return { reservation, checkpoints, ref: await prepared.publishPart(0, reservation, undefined), prepared };
      } catch (error) {
        if (!(error instanceof PublishWait)) throw error;
        checkpoints.push(error.checkpoint!);
        if (stopAt?.(error.checkpoint!)) return { reservation, checkpoints, ref: undefined, prepared };
      }
    }
    throw new Error('never published');
  }

  it('creates the video in a step of its own, then sends one chunk per step, then polls the transcode', async () => {
    const { checkpoints, ref } = await drive(['root'], 'Chunked');
    assert.deepEqual(checkpoints.map((cp) => [cp.phase, cp.offset]), [['upload', 0], ['upload', 1000], ['upload', 2000]]);
    const video = vm.videos().find((v) => v.name === 'Chunked')!;
    assert.deepEqual(vm.patches().filter((p) => p.videoId === video.id).map((p) => [p.uploadOffset, p.received]), [['0', 1000], ['1000', 1000], ['2000', 500]]);
    assert.equal(video.received, 2500);
    assert.deepEqual(ref, { platformId: video.id, url: `https://vimeo.com/${video.id}`, ref: { uri: video.uri } });
  });

  it('reconcile: a video not created is absent; one created but not on record is found and resumed, not created again', async () => {
    const prepared = await adapter().prepare(inputFor(['root'], 'Never sent'));
    assert.equal(await prepared.reconcile(0, prepared.reserve(0), undefined), 'absent');

    const reservation = { startedAt: new Date().toISOString() };
    const first = await adapter().prepare(inputFor(['root'], 'Orphan'));
    await assert.rejects(first.publishPart(0, reservation, undefined), PublishWait);
    // The checkpoint of that wait was lost (the worker died): the next attempt starts without it.
    const again = await adapter().prepare(inputFor(['root'], 'Orphan'));
    assert.equal(await again.reconcile(0, reservation, undefined), 'absent');
    await assert.rejects(again.publishPart(0, reservation, undefined), (wait: PublishWait) => {
      assert.equal(wait.checkpoint?.video, vm.videos().find((v) => v.name === 'Orphan')!.uri);
      return true;
    });
    assert.equal(vm.videos().filter((v) => v.name === 'Orphan').length, 1);
  });

  it('reconcile: a video on record is published once transcoded, and absent (to be resumed) before', async () => {
    vm.setTranscodeReads(1000);
    const { checkpoints, reservation } = await drive(['root'], 'Transcoding', (cp) => cp.phase === 'transcode');
    vm.setTranscodeReads(0);
    const cp = checkpoints.at(-1)!;
    const resumed = await adapter().prepare(inputFor(['root'], 'Transcoding', cp));
    assert.equal(await resumed.reconcile(0, reservation, undefined), 'absent');
    const opened = opens;
    await assert.rejects(resumed.publishPart(0, reservation, undefined), PublishWait);
    assert.equal(opens, opened, 'waiting on the transcode opens no file (one from another URL would be downloaded)');
    vm.completeTranscode(String(cp.video).split('/').at(-1)!);
    const ref = await resumed.reconcile(0, reservation, undefined) as PartRef;
    assert.equal(ref.platformId, String(cp.video).split('/').at(-1));
  });

  it('reconcile: a comment posted is found, one not posted is absent, and unreadable comments end unknown', async () => {
    const { ref: root, reservation } = await drive(['root', 'posted', 'not posted'], 'With comments');
    const prepared: PreparedPublish = await adapter().prepare(inputFor(['root', 'posted', 'not posted'], 'With comments'));
    const posted = await prepared.publishPart(1, prepared.reserve(1), root);
    const again = await adapter().prepare(inputFor(['root', 'posted', 'not posted'], 'With comments'));
    assert.deepEqual(await again.reconcile(1, reservation, root), posted);
    assert.equal(await again.reconcile(2, reservation, root), 'absent');
    assert.equal(posted.url, `${root!.url}#comment_${posted.platformId}`);
    vm.failNext({ status: 503, method: 'GET', path: `/videos/${root!.platformId}/comments` });
    await assert.rejects(again.reconcile(2, reservation, root), (error: PublishError) => {
      assert.equal(error.kind, 'unknown');
      assert.match(error.message, /^vimeo: could not tell whether container 3 is already posted \(vimeo: server error 503/);
      return true;
    });
  });

  it('a 429 waits until X-RateLimit-Reset, given as an ISO date or epoch seconds, else Retry-After, else a minute', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    const headers = (h: Record<string, string>) => ({ header: (name: string) => h[name] });
    assert.equal(rateLimitWaitMs(headers({ 'x-ratelimit-reset': '2026-11-25T10:01:30+00:00' }), now), 90_000);
    assert.equal(rateLimitWaitMs(headers({ 'x-ratelimit-reset': String(now / 1000 + 45) }), now), 45_000);
    assert.equal(rateLimitWaitMs(headers({ 'retry-after': '7' }), now), 7000);
    assert.equal(rateLimitWaitMs(headers({}), now), 60_000);
  });
});
