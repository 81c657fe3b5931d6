// The upload flow over real HTTP: POST /v1/media/upload, PUT to the signed URL, confirm, and what a
// client sees when something is off (expired or altered URL, nothing uploaded, lying type, too big,
// another org's id), plus delete and retention.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:tls';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mediaStorage } from '../../src/media/context.ts';
import { purgeExpiredMedia } from '../../src/media/maintenance.ts';
import type { TestOrg } from '../helpers/harness.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';
import { startMediaServer, type MediaHarness } from '../helpers/media.ts';

const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(200, 7), Buffer.from('ffd9', 'hex')]);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !e.parentPath.includes(`${path.sep}.tmp`)).map((e) => path.join(e.parentPath, e.name));
}

describe('media upload', () => {
  let h: MediaHarness;
  let org: TestOrg;
  let other: TestOrg;

  before(async () => {
    h = await startMediaServer();
    org = await h.server.createOrg();
    other = await h.server.createOrg();
  });
  after(() => h.close());

  const start = (filename: string, contentType?: string, key = org.key) =>
    h.server.request('POST', '/v1/media/upload', { key, body: { filename, ...(contentType ? { content_type: contentType } : {}) } });
  const confirm = (id: number, body: unknown = {}, key = org.key) => h.server.request('POST', `/v1/media/${id}/confirm`, { key, body });

  it('upload, PUT, confirm: the confirmed URL serves the same bytes, under PUBLIC_BASE_URL', async () => {
    const started = await start('cat.png', 'image/png');
    assert.equal(started.status, 200);
    const { id, upload_url, expires_in } = started.body.data;
    assert.equal(typeof id, 'number');
    assert.equal(expires_in, 900);
    assert.ok(upload_url.startsWith(`${h.front.url}/media-uploads/${id}?expires=`), upload_url);

    const put = await h.fetch(upload_url, { method: 'PUT', body: PNG_1X1, headers: { 'content-type': 'image/png' } });
    assert.equal(put.status, 200);
    assert.deepEqual(await put.json(), { success: true, data: { id, size: PNG_1X1.length } });

    const confirmed = await confirm(id, { size: PNG_1X1.length });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const media = confirmed.body.data;
    assert.equal(media.id, id);
    assert.equal(media.filename, 'cat.png');
    assert.equal(media.content_type, 'image/png');
    assert.equal(media.size, PNG_1X1.length);
    assert.equal(media.status, 'ready');
    assert.match(media.url, new RegExp(`^${h.front.url}/media/[A-Za-z0-9_-]{32}/cat\\.png$`));
    const retention = Date.parse(media.expires_at) - Date.parse(media.created_at);
    assert.equal(retention, 60 * 86_400_000);

    const served = await h.fetch(media.url);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG_1X1);

    const again = await confirm(id); // confirming twice answers the same
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data, media);
    assert.deepEqual((await h.server.request('GET', `/v1/media/${id}`, { key: org.key })).body, { success: true, data: media });
  });

  it('refuses an altered upload URL with 403 and stores nothing', async () => {
    const { id, upload_url } = (await start('a.png')).body.data;
    const url = new URL(upload_url);
    const signature = url.searchParams.get('signature')!;
    const altered = [
      (u: URL) => u.searchParams.set('signature', (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1)),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      (u: URL) => u.searchParams.delete('signature'),
    ];
    for (const alter of altered) {
      const bad = new URL(url);
      alter(bad);
      const res = await h.fetch(bad.href, { method: 'PUT', body: PNG_1X1 });
      assert.equal(res.status, 403, bad.href);
      assert.equal(((await res.json()) as any).code, 'invalid_signature');
    }
    // The signature of one media does not open another one.
    const second = (await start('b.png')).body.data;
    const stolen = new URL(url);
    stolen.pathname = `/media-uploads/${second.id}`;
    assert.equal((await h.fetch(stolen.href, { method: 'PUT', body: PNG_1X1 })).status, 403);
    assert.equal((await confirm(id)).status, 409);
    assert.equal((await confirm(second.id)).status, 409);
  });

  it('confirm before any upload: 409 upload_missing, and the media stays pending', async () => {
    const { id } = (await start('early.png')).body.data;
    const res = await h.server.request('POST', `/v1/media/${id}/confirm`, { key: org.key }); // no body at all: size is optional
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'upload_missing');
    const media = (await h.server.request('GET', `/v1/media/${id}`, { key: org.key })).body.data;
    assert.equal(media.status, 'pending');
    assert.equal(media.url, null);
  });

  it('a file whose bytes contradict its filename or content type: 400 with per-field details', async () => {
    const started = (await start('photo.png', 'image/png')).body.data;
    await h.fetch(started.upload_url, { method: 'PUT', body: JPEG });
    const res = await confirm(started.id);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'media_type_mismatch');
    assert.deepEqual(res.body.details.map((d: any) => d.field).sort(), ['content_type', 'filename']);
    assert.match(res.body.details.find((d: any) => d.field === 'filename').message, /names a PNG file, but the uploaded bytes are JPEG/);

    const html = (await start('clip.mp4')).body.data;
    await h.fetch(html.upload_url, { method: 'PUT', body: Buffer.from('<!doctype html><html><body>not a video</body></html>') });
    const refused = await confirm(html.id);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.details.map((d: any) => d.field), ['file']);
    assert.equal((await h.server.request('GET', `/v1/media/${html.id}`, { key: org.key })).body.data.status, 'pending');
  });

  it('confirm with the wrong size: 400 with details on size', async () => {
    const started = (await start('s.png')).body.data;
    // Whatever the client labels the body, it is stored raw, not parsed.
    assert.equal((await h.fetch(started.upload_url, { method: 'PUT', body: PNG_1X1, headers: { 'content-type': 'application/json' } })).status, 200);
    const res = await confirm(started.id, { size: PNG_1X1.length + 1 });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [{ field: 'size', message: `the uploaded file has ${PNG_1X1.length} bytes, not ${PNG_1X1.length + 1}` }]);
    assert.equal((await confirm(started.id, { size: PNG_1X1.length })).status, 200);
  });

  it('refuses bad upload requests with 400 and per-field details', async () => {
    const cases: [unknown, string[]][] = [
      [{ filename: 'report.pdf' }, ['filename']],
      [{ filename: 'noextension' }, ['filename']],
      [{ filename: '../etc/passwd.png' }, ['filename']],
      [{ filename: 'a.png?x=1' }, ['filename']],
      [{ filename: 'a.png', content_type: 'image/jpeg' }, ['content_type']],
      [{ filename: 'a.png', content_type: 'text/html' }, ['content_type']],
      [{ filename: '' }, ['filename']],
      [{}, ['filename']],
    ];
    for (const [body, fields] of cases) {
      const res = await h.server.request('POST', '/v1/media/upload', { key: org.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(res.body.details.map((d: any) => d.field), fields, JSON.stringify(body));
    }
    // MP4 and MOV are one container family: either name takes either type.
    assert.equal((await start('clip.mov', 'video/mp4')).status, 200);
  });

  it("another org's media is a 404 everywhere, and absent from its list", async () => {
    const mine = await h.upload(org, 'mine.png', PNG_1X1);
    for (const [method, path] of [['GET', `/v1/media/${mine.id}`], ['POST', `/v1/media/${mine.id}/confirm`], ['DELETE', `/v1/media/${mine.id}`]] as const) {
      const res = await h.server.request(method, path, { key: other.key, ...(method === 'POST' ? { body: {} } : {}) });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    const list = (await h.server.request('GET', '/v1/media?limit=100', { key: other.key })).body;
    assert.ok(!list.data.some((m: any) => m.id === mine.id));
    assert.equal((await h.server.request('GET', `/v1/media/${mine.id}`, { key: org.key })).status, 200);
  });

  it('an upload cut off mid-body leaves nothing behind and the media pending', async () => {
    const started = (await start('cut.png')).body.data;
    const url = new URL(started.upload_url);
    const before = await readdir(h.dataDir, { recursive: true });
    // Announce 100 KB, send 1 KB, hang up.
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: h.front.ca });
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
    socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 102400\r\n\r\n`);
    socket.write(PNG_1X1);
    await sleep(200);
    socket.destroy();
    await sleep(300);
    assert.equal((await confirm(started.id)).body.code, 'upload_missing');
    assert.deepEqual((await readdir(h.dataDir, { recursive: true })).sort(), before.sort(), 'no file, not even a temporary one');
    assert.equal((await h.fetch(started.upload_url, { method: 'PUT', body: PNG_1X1 })).status, 200, 'the URL still works for a retry');
  });

  it('a PUT after confirm is refused with 409 and the served bytes stay the same', async () => {
    const started = (await start('fixed.png')).body.data;
    await h.fetch(started.upload_url, { method: 'PUT', body: PNG_1X1 });
    const media = (await confirm(started.id)).body.data;
    const late = await h.fetch(started.upload_url, { method: 'PUT', body: JPEG });
    assert.equal(late.status, 409);
    assert.deepEqual(Buffer.from(await (await h.fetch(media.url)).arrayBuffer()), PNG_1X1);
  });

  it('lists newest first with limit/offset and the total count', async () => {
    const fresh = await h.server.createOrg();
    const ids = [];
    for (const name of ['1.png', '2.png', '3.png']) ids.push((await start(name, undefined, fresh.key)).body.data.id);
    const page = (await h.server.request('GET', '/v1/media?limit=2&offset=1', { key: fresh.key })).body;
    assert.equal(page.success, true);
    assert.equal(page.count, 3);
    assert.equal(page.limit, 2);
    assert.equal(page.offset, 1);
    assert.deepEqual(page.data.map((m: any) => m.id), [ids[1], ids[0]]);
    const past = (await h.server.request('GET', '/v1/media?offset=10', { key: fresh.key })).body;
    assert.deepEqual([past.data.length, past.count], [0, 3]);
    assert.equal((await h.server.request('GET', '/v1/media?limit=101', { key: fresh.key })).status, 400);
  });

  it('delete removes the row, the public URL and the file', async () => {
    const media = await h.upload(org, 'gone.png', PNG_1X1);
    const before = await filesUnder(h.dataDir);
    const res = await h.server.request('DELETE', `/v1/media/${media.id}`, { key: org.key });
    assert.deepEqual([res.status, res.body], [200, { success: true }]);
    assert.equal((await h.fetch(media.url)).status, 404);
    assert.equal((await h.server.request('GET', `/v1/media/${media.id}`, { key: org.key })).status, 404);
    assert.equal((await filesUnder(h.dataDir)).length, before.length - 1);
    assert.equal((await h.server.request('DELETE', `/v1/media/${media.id}`, { key: org.key })).status, 404);
  });

  it('maintenance removes unconfirmed uploads past their window and media past retention, rows and files', async () => {
    const keep = await h.upload(org, 'keep.png', PNG_1X1);
    const old = await h.upload(org, 'old.png', PNG_1X1);
    const abandoned = (await start('abandoned.png')).body.data;
    await h.fetch(abandoned.upload_url, { method: 'PUT', body: PNG_1X1 });
    const { rows } = await h.server.db.query<{ id: number; storage_key: string }>('SELECT id, storage_key FROM media WHERE id = ANY($1)', [[old.id, abandoned.id]]);
    // 61 days old, and an upload window that closed.
    await h.server.db.query("UPDATE media SET created_at = now() - interval '61 days', expires_at = now() - interval '1 day' WHERE id = $1", [old.id]);
    await h.server.db.query("UPDATE media SET expires_at = now() - interval '1 second' WHERE id = $1", [abandoned.id]);

    const purged = await purgeExpiredMedia(h.server.db, mediaStorage(h.server.config));
    assert.ok(purged.media >= 2);
    const left = await h.server.db.query('SELECT id FROM media WHERE id = ANY($1)', [[keep.id, old.id, abandoned.id]]);
    assert.deepEqual(left.rows.map((r) => r.id), [keep.id]);
    const files = await filesUnder(h.dataDir);
    for (const row of rows) assert.ok(!files.some((f) => f.endsWith(row.storage_key)), `${row.storage_key} still on disk`);
    assert.equal((await h.fetch(old.url)).status, 404);
    assert.equal((await h.fetch(keep.url)).status, 200);
  });
});

describe('media upload limits', () => {
  it('an expired upload URL answers 403 upload_url_expired', async () => {
    const h = await startMediaServer({ CRIER_MEDIA_UPLOAD_TTL_SECONDS: '1' });
    try {
      const org = await h.server.createOrg();
      const { upload_url, id } = (await h.server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'late.png' } })).body.data;
      await sleep(2100);
      const res = await h.fetch(upload_url, { method: 'PUT', body: PNG_1X1 });
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as any).code, 'upload_url_expired');
      assert.equal((await h.server.request('POST', `/v1/media/${id}/confirm`, { key: org.key, body: {} })).status, 409);
    } finally {
      await h.close();
    }
  });

  it('an upload over CRIER_MEDIA_MAX_UPLOAD_BYTES answers 413, announced or streamed, and keeps nothing', async () => {
    const h = await startMediaServer({ CRIER_MEDIA_MAX_UPLOAD_BYTES: '1024' });
    try {
      const org = await h.server.createOrg();
      const big = Buffer.alloc(4096, 1);
      const announced = (await h.server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'big.png' } })).body.data;
      const res = await h.fetch(announced.upload_url, { method: 'PUT', body: big });
      assert.equal(res.status, 413);
      assert.equal(((await res.json()) as any).code, 'payload_too_large');

      // Chunked, no Content-Length: refused while streaming.
      const streamed = (await h.server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'big2.png' } })).body.data;
      const body = new ReadableStream({ start(controller) { controller.enqueue(big.subarray(0, 2048)); controller.enqueue(big.subarray(2048)); controller.close(); } });
      const chunked = await h.fetch(streamed.upload_url, { method: 'PUT', body, duplex: 'half' });
      assert.equal(chunked.status, 413);

      for (const id of [announced.id, streamed.id]) {
        assert.equal((await h.server.request('POST', `/v1/media/${id}/confirm`, { key: org.key, body: {} })).body.code, 'upload_missing');
      }
      assert.deepEqual(await filesUnder(h.dataDir), []);
      // At the limit exactly is fine.
      const fits = (await h.server.request('POST', '/v1/media/upload', { key: org.key, body: { filename: 'fits.png' } })).body.data;
      assert.equal((await h.fetch(fits.upload_url, { method: 'PUT', body: Buffer.concat([PNG_1X1, Buffer.alloc(1024 - PNG_1X1.length)]) })).status, 200);
    } finally {
      await h.close();
    }
  });
});
