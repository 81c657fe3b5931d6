// Media a post names by an outside URL, opened for publishing (media/fetch.ts): downloaded through the
// SSRF guard into a temporary file as it arrives, read back in ranges, removed when disposed of; over
// the cap or refused, nothing is left behind. Against a real local HTTPS server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { after, before, test } from 'node:test';
import { createMediaFetcher, createMediaOpener } from '../../src/media/fetch.ts';
import { PublishError } from '../../src/networks/errors.ts';
import { createGuardedClient, type GuardedClient } from '../../src/security/ssrf.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';

const VIDEO = randomBytes(24 * 1024 * 1024);
const CAP = 32 * 1024 * 1024;
let server: TestHttpsServer;
let client: GuardedClient;

const tempFiles = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('crier-media-'));

before(async () => {
  server = await startHttpsServer();
  server.route('/clip.mp4', (_req, res) => {
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
});

test('a video by URL is a temporary file read in ranges, gone once disposed of', async () => {
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
  assert.deepEqual((await tempFiles()).filter((name) => !before.includes(name)), [], 'removed');
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
  assert.deepEqual((await tempFiles()).filter((name) => !before.includes(name)), []);
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
  assert.deepEqual((await tempFiles()).filter((name) => !before.includes(name)), []);
});
