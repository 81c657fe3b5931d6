// The emulators that download the media a post names, as their networks do (Threads, Instagram,
// Google Business Profile, TikTok, Pinterest), download it with the fetch they are given when they
// are given one (`fetchMedia`): the sandbox hands them one through Crier's SSRF guard. Each is started
// here as the sandbox starts it (its network's sandbox spec, with its seeded account), with a fetch
// that serves a JPEG for URLs no resolver knows (.invalid): only that fetch can have answered them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxAccountSeed, SandboxEmulator, SandboxEmulatorSpec } from '../../src/sandbox/contract.ts';
import { facebookEmulator } from '../../src/networks/facebook/sandbox.ts';
import { googleEmulator } from '../../src/networks/google/sandbox.ts';
import { pinterestEmulator } from '../../src/networks/pinterest/sandbox.ts';
import { threadsEmulator } from '../../src/networks/threads/sandbox.ts';
import { tiktokEmulator } from '../../src/networks/tiktok/sandbox.ts';
import { makeJpeg } from '../helpers/media.ts';

let jpeg: Buffer;
/** Every URL the given fetch was asked for, in order. */
const asked: string[] = [];
const fetchMedia: typeof fetch = async (input) => {
  asked.push(String(input));
  return new Response(new Uint8Array(jpeg), { status: 200, headers: { 'content-type': 'image/jpeg' } });
};

before(async () => {
  jpeg = await makeJpeg('320x240');
});

/** Starts `spec` with the recording fetch; its seeded account of `network`. */
function started(spec: SandboxEmulatorSpec, network: string) {
  const run = { emulator: undefined as unknown as SandboxEmulator, seed: undefined as unknown as SandboxAccountSeed };
  before(async () => {
    run.emulator = await spec.start('127.0.0.1', fetchMedia);
    run.seed = (await run.emulator.sandboxAccounts!()).find((s) => s.network === network)!;
  });
  after(() => run.emulator.close());
  return run;
}

const form = (url: string, authorization: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })
    .then(async (r) => ({ status: r.status, body: await r.json() as any }));

const json = (url: string, token: string, body: object) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then(async (r) => ({ status: r.status, body: await r.json() as any }));

describe('an image container on Threads', () => {
  const run = started(threadsEmulator, 'threads');
  test('is downloaded with the given fetch', async () => {
    const url = 'https://threads-media.invalid/photo.jpg';
    const created = await form(`${run.emulator.url}/v1.0/${run.seed.networkUniqueId}/threads`, `Bearer ${run.seed.accessToken}`, { media_type: 'IMAGE', image_url: url });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.ok(asked.includes(url));
  });
});

describe('an image container on Instagram', () => {
  const run = started(facebookEmulator, 'instagram');
  test('is downloaded with the given fetch', async () => {
    const url = 'https://instagram-media.invalid/photo.jpg';
    const created = await form(`${run.emulator.url}/v23.0/${run.seed.networkUniqueId}/media`, `OAuth ${run.seed.accessToken}`, { image_url: url, caption: 'hi' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.ok(asked.includes(url));
  });
});

describe('a Business Profile post with a photo', () => {
  const run = started(googleEmulator, 'google_business');
  test('is fetched from its sourceUrl with the given fetch', async () => {
    const url = 'https://business-media.invalid/photo.jpg';
    const created = await json(`${run.emulator.url}/v4/${run.seed.networkUniqueId}/localPosts`, run.seed.accessToken!, {
      languageCode: 'en', summary: 'Fresh bread', topicType: 'STANDARD', media: [{ mediaFormat: 'PHOTO', sourceUrl: url }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.ok(asked.includes(url));
  });
});

describe('a TikTok photo post (PULL_FROM_URL)', () => {
  const run = started(tiktokEmulator, 'tiktok');
  test('is pulled with the given fetch', async () => {
    const url = 'https://tiktok-media.invalid/photo.jpg';
    const init = await json(`${run.emulator.url}/v2/post/publish/content/init/`, run.seed.accessToken!, {
      media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: { title: 't' },
      source_info: { source: 'PULL_FROM_URL', photo_images: [url], photo_cover_index: 0 },
    });
    assert.equal(init.body.error.code, 'ok', JSON.stringify(init.body));
    // TikTok pulls after answering the init: its status says how the download went.
    let status: any;
    for (let i = 0; i < 50 && !asked.includes(url); i++) await sleep(20);
    for (let i = 0; i < 50; i++) {
      status = (await json(`${run.emulator.url}/v2/post/publish/status/fetch/`, run.seed.accessToken!, { publish_id: init.body.data.publish_id })).body.data;
      if (status.downloaded_bytes) break;
      await sleep(20);
    }
    assert.ok(asked.includes(url));
    assert.equal(status.downloaded_bytes, jpeg.length, JSON.stringify(status));
    assert.equal(status.fail_reason, undefined);
  });
});

describe('a Pinterest pin by image_url', () => {
  const run = started(pinterestEmulator, 'pinterest');
  test('is fetched with the given fetch', async () => {
    const url = 'https://pinterest-media.invalid/photo.jpg';
    const created = await json(`${run.emulator.url}/v5/pins`, run.seed.accessToken!, { board_id: '5100000000000101', media_source: { source_type: 'image_url', url } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.ok(asked.includes(url));
  });
});
