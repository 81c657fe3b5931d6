// Media a post names by an outside URL, opened for publishing (media/fetch.ts): downloaded through the
// SSRF guard into a temporary file as it arrives, read back in ranges, kept a while for the next step
// of its upload (download-cache.ts) and removed once idle; over the cap or refused, nothing is left
// behind. Against a real local HTTPS server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DownloadCache } from '../../src/media/download-cache.ts';
import { createMediaFetcher as fetcherWith, createMediaOpener as openerWith } from '../../src/media/fetch.ts';
import { PublishError } from '../../src/core/errors.ts';
import { createGuardedClient, type GuardedClient } from '../../src/security/ssrf.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';

const VIDEO = randomBytes(24 * 1024 * 1024);
const CAP = 32 * 1024 * 1024;
let server: TestHttpsServer;
let client: GuardedClient;

/** Kept files go 30 ms after their last use: a test sees them kept, then gone. */
const IDLE_MS = 30;
const createMediaOpener = (guarded: GuardedClient, kept = new DownloadCache({ idleMs: IDLE_MS })) => openerWith(guarded, undefined, kept);
const createMediaFetcher = (guarded: GuardedClient) => fetcherWith(guarded, undefined, new DownloadCache({ idleMs: IDLE_MS }));
let clipRequests = 0;

const tempFiles = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('crier-media-'));

/**
 * The temporary files made since `before` that are still there once the cache's idle time has
 * passed — waited for up to 5 s, not a fixed moment: on a loaded machine the removal that follows
 * the idle timer may come later than a few idle periods, but it must come.
 */
async function leftAfterIdle(before: string[]): Promise<string[]> {
  await sleep(IDLE_MS * 5);
  let left = (await tempFiles()).filter((name) => !before.includes(name));
  for (let waited = 0; left.length && waited < 5_000; waited += 50) {
    await sleep(50);
    left = (await tempFiles()).filter((name) => !before.includes(name));
  }
  return left;
}

// A temporary directory of this file's own: other test files' workers download into the system's at
// the same time, and their files would be counted as this file's.
let ownTmp: string;
const systemTmp = process.env.TMPDIR;

before(async () => {
  ownTmp = await mkdtemp(path.join(os.tmpdir(), 'crier-external-test-'));
  process.env.TMPDIR = ownTmp;
  server = await startHttpsServer();
  server.route('/clip.mp4', (_req, res) => {
    clipRequests += 1;
    res.writeHead(200, { 'content-type': 'video/mp4; codecs="avc1"' });
    // In pieces, as a real server sends a large file.
    for (let at = 0; at < VIDEO.length; at += 1024 * 1024) res.write(VIDEO.subarray(at, at + 1024 * 1024));
    res.end();
  });
  server.route('/huge.mp4', (_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4' });
    const chunk = randomBytes(1024 * 1024);
    let sent = 0;
    const more = () => {
      while (sent < CAP + 4 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  client = createGuardedClient({ allowLoopback: true, ca: server.ca, maxBytes: CAP });
});
after(async () => {
  await client.close();
  await server.close();
  if (systemTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTmp;
  await rm(ownTmp, { recursive: true, force: true });
});

test('a video by URL is a temporary file read in ranges, gone once disposed of and idle', async () => {
  const before = await tempFiles();
  const source = await createMediaOpener(client)(`${server.url}/clip.mp4`);
  assert.equal(source.size, VIDEO.length);
  assert.equal(source.contentType, 'video/mp4');
  const created = (await tempFiles()).filter((name) => !before.includes(name));
  assert.equal(created.length, 1, 'the download went to one temporary file');
  const range = { start: 5 * 1024 * 1024 + 7, end: 9 * 1024 * 1024 };
  const chunks: Buffer[] = [];
  for await (const chunk of source.read(range)) chunks.push(chunk as Buffer);
  assert.deepEqual(Buffer.concat(chunks), VIDEO.subarray(range.start, range.end + 1));
  assert.deepEqual(await source.bytes(), VIDEO);
  await source.dispose!();
  assert.deepEqual(await leftAfterIdle(before), [], 'removed');
});

test('the next step of an upload, and a second destination at the same time, read the one download', async () => {
  const kept = new DownloadCache({ idleMs: 2_000 });
  const open = createMediaOpener(client, kept);
  const requests = clipRequests;
  const before = await tempFiles();
  const [first, second] = await Promise.all([open(`${server.url}/clip.mp4`), open(`${server.url}/clip.mp4`)]);
  assert.equal(clipRequests, requests + 1, 'two destinations opening it at once share one download');
  await first.dispose!();
  await second.dispose!();
  const nextStep = await open(`${server.url}/clip.mp4`);
  assert.equal(clipRequests, requests + 1, 'the next step finds it kept');
  assert.deepEqual(await nextStep.bytes(), VIDEO);
  assert.equal((await tempFiles()).filter((name) => !before.includes(name)).length, 1);
  await nextStep.dispose!();
});

test('kept files past the budget go, the longest idle first; one in use stays', async () => {
  // 40 MB: one clip (24 MB) or the huge file (36 MB) fits, not two files.
  const kept = new DownloadCache({ idleMs: 60_000, maxIdleBytes: 40 * 1024 * 1024 });
  const open = createMediaOpener(client, kept);
  const before = await tempFiles();
  const held = await open(`${server.url}/huge.mp4`, { maxBytes: 64 * 1024 * 1024, network: 'YouTube' });
  const a = await open(`${server.url}/clip.mp4`);
  await a.dispose!();
  assert.equal(kept.size, 2, 'within the budget: kept');
  const b = await open(`${server.url}/clip.mp4`, { maxBytes: 48 * 1024 * 1024, network: 'Vimeo' });
  await b.dispose!();
  await until(() => kept.size === 2, 'two clips idle are over the budget: the first one goes');
  assert.equal(held.size, CAP + 4 * 1024 * 1024, 'the file in use is never removed');
  assert.deepEqual(await held.bytes().then((bytes) => bytes.length), CAP + 4 * 1024 * 1024);
  await held.dispose!();
  await until(() => kept.size === 1, 'with the huge one idle too, the clip idle longest goes; the huge one fits alone');
  const again = await open(`${server.url}/huge.mp4`, { maxBytes: 64 * 1024 * 1024, network: 'YouTube' });
  assert.equal(again.size, CAP + 4 * 1024 * 1024);
  await again.dispose!();
  // An entry leaves the cache before its file is removed (a new acquire must not find a file being
  // deleted): the count of files follows a moment later.
  let files: string[] = [];
  for (let i = 0; i < 100; i++) {
    files = (await tempFiles()).filter((name) => !before.includes(name));
    if (files.length === 1) break;
    await sleep(20);
  }
  assert.equal(files.length, 1, 'only the huge file is kept on disk');
});

test('over the cap: a permanent failure naming the limit, and no temporary file left', async () => {
  const before = await tempFiles();
  await assert.rejects(createMediaOpener(client)(`${server.url}/huge.mp4`), (error: unknown) => {
    assert.ok(error instanceof PublishError);
    assert.equal(error.kind, 'permanent');
    assert.match(error.message, /huge\.mp4 was refused: response body exceeds the 33554432 byte limit/);
    return true;
  });
  assert.deepEqual((await tempFiles()).filter((name) => !before.includes(name)), []);
});

test('a 404 says so, and the whole-file fetcher (images) leaves nothing behind either', async () => {
  const before = await tempFiles();
  await assert.rejects(createMediaOpener(client)(`${server.url}/missing.png`), /answered HTTP 404; media URLs must be publicly reachable/);
  const { bytes, contentType } = await createMediaFetcher(client)(`${server.url}/clip.mp4`);
  assert.equal(contentType, 'video/mp4');
  assert.equal(bytes.length, VIDEO.length);
  assert.deepEqual(await leftAfterIdle(before), []);
});

test('a file over what the destination\'s network takes fails naming both sizes, and is not kept', async () => {
  const before = await tempFiles();
  await assert.rejects(createMediaOpener(client)(`${server.url}/clip.mp4`, { maxBytes: 16 * 1024 * 1024, network: 'Bluesky' }), (error: unknown) => {
    assert.ok(error instanceof PublishError);
    assert.equal(error.kind, 'permanent');
    // Refused while it streams: the cap is the download's own.
    assert.match(error.message, /clip\.mp4 was refused: response body exceeds the 16777216 byte limit/);
    return true;
  });
  // A cap above the guard's own lets a larger file through (the guard's is only the default).
  const source = await createMediaOpener(client)(`${server.url}/huge.mp4`, { maxBytes: 64 * 1024 * 1024, network: 'YouTube' });
  assert.equal(source.size, CAP + 4 * 1024 * 1024);
  await source.dispose!();
  assert.deepEqual(await leftAfterIdle(before), []);
});

async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await sleep(20);
  assert.ok(condition(), what);
}
