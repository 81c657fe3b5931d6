// The public media URL as a network's fetcher or a video player sees it: headers, byte ranges,
// conditional requests, and nothing served that is not confirmed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseRange } from '../../src/media/range.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { startMediaServer, type MediaHarness } from '../helpers/media.ts';

describe('public media URLs', () => {
  let h: MediaHarness;
  let org: TestOrg;
  let media: any;
  // An MP4 as far as confirm can tell (an ftyp box), then 100 KB of noise.
  const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), randomBytes(100_000)]);

  before(async () => {
    h = await startMediaServer();
    org = await h.server.createOrg();
    media = await h.upload(org, 'clip.mp4', bytes);
  });
  after(() => h.close());

  it('serves the whole file with type, length, ranges, ETag and cache headers', async () => {
    const res = await h.fetch(media.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    assert.equal(res.headers.get('content-length'), String(bytes.length));
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.match(res.headers.get('etag')!, /^"[A-Za-z0-9_-]{43}"$/);
    assert.match(res.headers.get('cache-control')!, /public, max-age=\d+/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(res.headers.get('last-modified'));
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
  });

  it('answers byte ranges with 206 and the exact slice', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, bytes.length - 1],
      ['bytes=-500', bytes.length - 500, bytes.length - 1],
      [`bytes=50000-${bytes.length + 1000}`, 50000, bytes.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await h.fetch(media.url, { headers: { range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${bytes.length}`, range);
      assert.equal(res.headers.get('content-length'), String(end - start + 1), range);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes.subarray(start, end + 1), range);
    }
  });

  it('answers 416 for a range past the end, and the whole file for a multi-range', async () => {
    const past = await h.fetch(media.url, { headers: { range: `bytes=${bytes.length}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${bytes.length}`);
    await past.arrayBuffer();
    const multi = await h.fetch(media.url, { headers: { range: 'bytes=0-1,5-6' } });
    assert.equal(multi.status, 200);
    assert.equal((await multi.arrayBuffer()).byteLength, bytes.length);
  });

  it('honours If-None-Match (304) and If-Range (a stale ETag gets the whole file)', async () => {
    const etag = (await h.fetch(media.url, { method: 'HEAD' })).headers.get('etag')!;
    const cached = await h.fetch(media.url, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    const fresh = await h.fetch(media.url, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    assert.equal(fresh.status, 206);
    await fresh.arrayBuffer();
    const stale = await h.fetch(media.url, { headers: { range: 'bytes=0-9', 'if-range': '"something-else"' } });
    assert.equal(stale.status, 200);
    assert.equal((await stale.arrayBuffer()).byteLength, bytes.length);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await h.fetch(media.url, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(bytes.length));
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  it('serves nothing unconfirmed, nothing under another filename, nothing for a made-up token', async () => {
    const started = (await h.server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'p.mp4' } })).body.data;
    await h.fetch(started.upload_url, { method: 'PUT', body: bytes });
    const { rows } = await h.server.db.query<{ token: string }>('SELECT token FROM media WHERE id = $1', [started.id]);
    const token = rows[0]!.token;
    assert.equal((await h.fetch(`${h.front.url}/media/${token}/p.mp4`)).status, 404);
    assert.equal((await h.fetch(media.url.replace(/clip\.mp4$/, 'other.mp4'))).status, 404);
    assert.equal((await h.fetch(`${h.front.url}/media/${'A'.repeat(32)}/clip.mp4`)).status, 404);
    assert.equal((await h.fetch(`${h.front.url}/media/short/clip.mp4`)).status, 404);
  });
});

describe('parseRange', () => {
  it('reads single byte ranges and ignores what it cannot use', () => {
    assert.deepEqual(parseRange(undefined, 10), { kind: 'full' });
    assert.deepEqual(parseRange('bytes=2-4', 10), { kind: 'partial', start: 2, end: 4 });
    assert.deepEqual(parseRange('bytes=8-', 10), { kind: 'partial', start: 8, end: 9 });
    assert.deepEqual(parseRange('bytes=-3', 10), { kind: 'partial', start: 7, end: 9 });
    assert.deepEqual(parseRange('bytes=-30', 10), { kind: 'partial', start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=10-', 10), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=-0', 10), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=5-2', 10), { kind: 'full' });
    assert.deepEqual(parseRange('items=0-1', 10), { kind: 'full' });
    assert.deepEqual(parseRange('bytes=0-1,3-4', 10), { kind: 'full' });
  });
});
