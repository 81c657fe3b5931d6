// POST /v1/media/import: Crier downloads a file from a URL itself and keeps it as confirmed media.
// Over real HTTP: a local origin serves the files (loopback allowed for the test's origin, as every
// media test does), and the SSRF guard still refuses what it must.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestOrg } from '../helpers/harness.ts';
import { PNG_1X1 } from '../helpers/publishing.ts';
import { startHttpsServer, type TestHttpsServer } from '../helpers/https-server.ts';
import { startMediaServer, type MediaHarness } from '../helpers/media.ts';

describe('media import from a URL', () => {
  let h: MediaHarness;
  let org: TestOrg;
  let origin: TestHttpsServer;
  let originUrl: string;
  let caFile: string;

  before(async () => {
    origin = await startHttpsServer();
    origin.route('/cat.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1));
    origin.route('/lies.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('<html>not a picture</html>')));
    origin.route('/big.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(4096, 1)));
    originUrl = origin.url;
    caFile = await origin.caFile();
    h = await startMediaServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'true', CRIER_MEDIA_MAX_UPLOAD_BYTES: '2048', CRIER_EXTRA_CA_FILE: caFile });
    org = await h.server.createOrg();
  });
  after(async () => {
    await h.close();
    await origin.close();
  });

  const importUrl = (body: unknown, key = org.key) => h.server.request('POST', '/v1/media/import', { key, body });

  it('downloads the file, keeps it as ready media, and serves the same bytes at its url', async () => {
    const imported = await importUrl({ url: `${originUrl}/cat.png` });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    const media = imported.body.data;
    assert.equal(media.status, 'ready');
    assert.equal(media.filename, 'cat.png');
    assert.equal(media.content_type, 'image/png');
    assert.equal(media.size, PNG_1X1.length);
    const bytes = Buffer.from(await (await h.fetch(media.url)).arrayBuffer());
    assert.deepEqual(bytes, PNG_1X1);
    const listed = await h.server.request('GET', `/v1/media/${media.id}`, { key: org.key });
    assert.equal(listed.body.data.status, 'ready');
  });

  it('refuses what cannot be kept, with the field, and keeps nothing', async () => {
    const before = (await h.server.request('GET', '/v1/media', { key: org.key })).body.pagination.total;
    const missing = await importUrl({ url: `${originUrl}/gone.png` });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.details[0].field, 'url');
    assert.match(missing.body.details[0].message, /HTTP 404/);
    const lying = await importUrl({ url: `${originUrl}/lies.png` });
    assert.equal(lying.status, 400, JSON.stringify(lying.body));
    const big = await importUrl({ url: `${originUrl}/big.png` });
    assert.equal(big.status, 413);
    const badName = await importUrl({ url: `${originUrl}/cat.png`, filename: 'cat.exe' });
    assert.equal(badName.status, 400);
    assert.equal(badName.body.details[0].field, 'filename');
    const notUrl = await importUrl({ url: 'file:///etc/passwd' });
    assert.equal(notUrl.status, 400);
    assert.equal(notUrl.body.details[0].field, 'url');
    const after = (await h.server.request('GET', '/v1/media', { key: org.key })).body.pagination.total;
    assert.equal(after, before, 'no media row is left behind by a refused import');
  });

  it('the SSRF guard stands when loopback is not allowed', async () => {
    const strict = await startMediaServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'false', CRIER_EXTRA_CA_FILE: caFile });
    try {
      const strictOrg = await strict.server.createOrg();
      const refused = await strict.server.request('POST', '/v1/media/import', { key: strictOrg.key, body: { url: `${originUrl}/cat.png` } });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.details[0].field, 'url');
      assert.equal(origin.requests.filter((r) => r.path === '/cat.png').length, 1, 'the origin was never called for the refused import');
    } finally {
      await strict.close();
    }
  });
});
