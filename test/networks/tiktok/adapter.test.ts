// The TikTok adapter's pure parts: TikTok's chunk rules as Crier plans them, the MP4 duration read
// from a few byte ranges, and what reconcile says after a crash in each step (no network call).
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { createTikTokAdapter } from '../../../src/networks/tiktok/adapter.ts';
import { chunkPlan, chunkRange, chunksHeld, isoDurationSeconds } from '../../../src/networks/tiktok/chunks.ts';
import { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { makeVideo } from '../../helpers/media.ts';

const MB = 1024 * 1024;

describe('TikTok chunks', () => {
  it('a file under the chunk size goes whole; larger ones in floor(size / chunk) chunks, the last taking the rest', () => {
    assert.deepEqual(chunkPlan(3 * MB), { videoSize: 3 * MB, chunkSize: 3 * MB, count: 1 });
    assert.deepEqual(chunkPlan(21 * MB), { videoSize: 21 * MB, chunkSize: 10 * MB, count: 2 });
    assert.deepEqual(chunkRange(chunkPlan(21 * MB), 1), { first: 10 * MB, last: 21 * MB - 1 });
    const big = chunkPlan(300 * MB, 64 * MB);
    assert.deepEqual([big.chunkSize, big.count, 300 * MB - chunkRange(big, 3).first], [64 * MB, 4, 108 * MB], 'the last chunk stays under 128 MB');
    assert.equal(chunkPlan(4096 * MB).count, 409, 'a 4 GB video stays within 1,000 chunks');
    assert.equal(chunkPlan(30 * MB, 1 * MB).chunkSize, 5 * MB, 'never below TikTok\'s 5 MB');
    assert.equal(chunkPlan(300 * MB, 100 * MB).chunkSize, 64 * MB, 'never above its 64 MB');
  });

  it('what TikTok holds, from its uploaded_bytes: whole chunks only', () => {
    const plan = chunkPlan(30 * MB);
    assert.deepEqual([0, 10 * MB - 1, 10 * MB, 25 * MB, 30 * MB].map((b) => chunksHeld(plan, b)), [0, 0, 1, 2, 3]);
  });

  it('reads an MP4\'s duration from its movie header, and nothing from other bytes', async () => {
    const video = await makeVideo({ seconds: 3, size: '160x120', rate: 10 });
    const read = (bytes: Buffer) => (start: number, end: number) => Readable.from([bytes.subarray(start, end + 1)]);
    const seconds = await isoDurationSeconds(video.length, read(video));
    assert.ok(seconds !== undefined && Math.abs(seconds - 3) < 0.2, `${seconds}`);
    const noise = Buffer.alloc(4096, 7);
    assert.equal(await isoDurationSeconds(noise.length, read(noise)), undefined);
  });
});

describe('TikTok reconcile after a crash', () => {
  const adapter = createTikTokAdapter({ apiUrl: 'http://127.0.0.1:9', creatorCap: 5, publicUrl: { publicBaseUrl: 'https://crier.example.com', realNetwork: false } });
  const inputWith = (filename: string, checkpoint?: Record<string, unknown>): PublishInput => ({
    account: { id: 1, orgId: 1, network: 'tiktok', username: 'ada', networkUniqueId: 'open-1', serviceUrl: null, accessToken: 't', refreshToken: null, credential: null },
    containers: [{ content: 'c', media: [{ url: `https://crier.example.com/media/x/${filename}`, filename }] }],
    block: {},
    fetchMedia: () => { throw new Error('no media'); },
    openMedia: () => { throw new Error('no media'); },
    userFetch: fetch,
    saveTokens: async () => {},
    ledger: { withPool: () => { throw new Error('no ledger'); }, read: () => { throw new Error('no ledger'); } },
    ...(checkpoint ? { checkpoint } : {}),
  });
  const reconcile = async (filename: string, checkpoint?: Record<string, unknown>) => (await adapter.prepare(inputWith(filename, checkpoint))).reconcile(0, {}, undefined);

  it('nothing stored, or a video at any step: absent, and the steps resume from the checkpoint', async () => {
    assert.equal(await reconcile('v.mp4'), 'absent');
    assert.equal(await reconcile('v.mp4', { position: 0, kind: 'video', stage: 'upload', username: 'ada', publishId: 'p', sent: 1 }), 'absent');
    assert.equal(await reconcile('v.mp4', { position: 0, kind: 'video', stage: 'status', username: 'ada', publishId: 'p' }), 'absent');
  });

  it('a crash in the photo init step: it cannot tell, and says where to look', async () => {
    await assert.rejects(reconcile('p.jpg', { position: 0, kind: 'photo', stage: 'init', username: 'ada' }), (error: PublishError) => {
      assert.equal(error.kind, 'unknown');
      assert.match(error.message, /^tiktok: could not tell whether container 1 is already posted \(the photo post may have reached TikTok.*check the creator's TikTok profile and inbox/);
      return true;
    });
  });
});
