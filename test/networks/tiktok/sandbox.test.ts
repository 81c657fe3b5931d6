// The TikTok sandbox: `crier start --sandbox` connects @sandbox_tiktok out of the box with a token the
// emulator honours for publishing, and any media URL counts as verified there (a local Crier's).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { tiktokEmulator } from '../../../src/networks/tiktok/sandbox.ts';

let emulator: SandboxEmulator;
let seeds: SandboxAccountSeed[];

before(async () => {
  emulator = await tiktokEmulator.start('127.0.0.1');
  seeds = await emulator.sandboxAccounts!();
});
after(() => emulator.close());

const call = (path: string, token: string, body: object) => fetch(`${emulator.url}${path}`, {
  method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body),
}).then(async (r) => ({ status: r.status, body: await r.json() as any }));

test('the sandbox creator is seeded with a token that reads creator info and starts posts', async () => {
  assert.deepEqual(seeds.map((s) => [s.network, s.username, s.nickname]), [['tiktok', 'sandbox_tiktok', 'Sandbox TikTok']]);
  const token = seeds[0]!.accessToken!;
  const info = await call('/v2/post/publish/creator_info/query/', token, {});
  assert.equal(info.body.data.creator_username, 'sandbox_tiktok');
  const draft = await call('/v2/post/publish/inbox/video/init/', token, { source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 } });
  assert.equal(draft.body.error.code, 'ok', JSON.stringify(draft.body));
  const photos = await call('/v2/post/publish/content/init/', token, {
    media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: { title: 't' },
    source_info: { source: 'PULL_FROM_URL', photo_images: ['http://localhost:3000/media/abc/p.jpg'], photo_cover_index: 0 },
  });
  assert.equal(photos.body.error.code, 'ok', 'a local Crier\'s media URL counts as verified in the sandbox');
});
