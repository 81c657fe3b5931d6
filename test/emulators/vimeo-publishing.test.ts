// The Vimeo emulator's publishing side spoken to directly, as Vimeo's documentation and the tus 1.0.0
// protocol describe it: what POST /me/videos refuses and with which error_code, the tus endpoint's
// answers (412, 415, 409, 404, 413, HEAD), the rate-limit headers and the 429, field filtering, the
// upload quota on GET /me, and comments. What the adapter relies on, checked on its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator } from '../../emulators/vimeo/server.ts';
import { VIMEO_ACCEPT, VIMEO_SCOPES } from '../../src/networks/vimeo/oauth.ts';

const APP = { clientId: 'crier-vimeo', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] };

describe('the Vimeo emulator (publishing)', () => {
  let vm: VimeoEmulator;
  let token: string;
  let userId: string;

  before(async () => {
    vm = await startVimeoEmulator();
    vm.addApp(APP);
    vm.setTranscodeReads(1);
    const user = vm.addUser({ name: 'Ada' });
    userId = user.id;
    token = vm.oauth.issue(user.id, APP.clientId, VIMEO_SCOPES).accessToken;
  });
  after(() => vm.close());

  const api = async (path: string, init: { method?: string; json?: unknown; body?: string; token?: string } = {}) => {
    const res = await fetch(`${vm.url}${path}`, {
      method: init.method ?? (init.json === undefined && init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `bearer ${init.token ?? token}`, accept: VIMEO_ACCEPT, 'content-type': 'application/json' },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : init.body !== undefined ? { body: init.body } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const create = (json: unknown) => api('/me/videos', { json });
  const tus = (link: string, init: { method: string; headers?: Record<string, string>; body?: Buffer }) =>
    fetch(link, { method: init.method, headers: init.headers ?? {}, ...(init.body ? { body: new Uint8Array(init.body) } : {}) });
  const offsetHeaders = (offset: number) => ({ 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });

  it('POST /me/videos refuses what api.yaml says it refuses, with its error_code', async () => {
    const codes = async (json: unknown) => {
      const res = await create(json);
      return [res.status, res.body.error_code];
    };
    assert.deepEqual(await codes([1]), [400, 2205]);
    assert.deepEqual(await codes({ type: 'tus' }), [400, 3116]);
    assert.deepEqual(await codes({ name: 'x' }), [400, 2204]);
    assert.deepEqual(await codes({ upload: { approach: 'ftp', size: '10' } }), [400, 2230]);
    assert.deepEqual(await codes({ upload: { approach: 'tus' } }), [400, 2204]);
    assert.deepEqual(await codes({ upload: { approach: 'tus', size: '-3' } }), [400, 2204]);
    assert.deepEqual(await codes({ upload: { approach: 'tus', size: '10' }, privacy: { view: 'public' } }), [400, 2204]);
    assert.deepEqual(await codes({ upload: { approach: 'tus', size: '10' }, privacy: { embed: 'anybody' } }), [400, 2204]);
    assert.deepEqual(await codes({ upload: { approach: 'tus', size: '10' }, privacy: { view: 'password' } }), [400, 2204]);
    const bad = await create({ upload: { approach: 'tus', size: '10' }, privacy: { view: 'nope' } });
    assert.deepEqual(Object.keys(bad.body).sort(), ['developer_message', 'error', 'error_code', 'link']);
    assert.equal((await api('/me/videos', { json: { upload: { approach: 'tus', size: '10' } }, token: 'unknown' })).body.error_code, 8000);
  });

  it('the upload quota: GET /me?fields=upload_quota shows the space, and a video larger than it is refused with 4102', async () => {
    vm.setUploadQuota(userId, { free: 5000, max: 10_000 });
    const me = await api('/me?fields=upload_quota');
    assert.deepEqual(Object.keys(me.body), ['upload_quota']);
    assert.deepEqual(me.body.upload_quota.space, { free: 5000, max: 10_000, used: 5000, showing: 'lifetime' });
    const refused = await create({ upload: { approach: 'tus', size: '5001' } });
    assert.deepEqual([refused.status, refused.body.error_code], [403, 4102]);
    assert.equal((await create({ upload: { approach: 'tus', size: '5000' } })).status, 201);
    assert.equal((await api('/me?fields=upload_quota')).body.upload_quota.space.free, 0, 'the created video took the space');
    vm.setUploadQuota(userId, { free: 1e12, max: 1e12 });
  });

  it('tus: 412 without Tus-Resumable, 415 for another type, 409 at another offset, 413 past the length; HEAD says the offset', async () => {
    const created = await create({ name: 'tus', upload: { approach: 'tus', size: '6' } });
    assert.equal(created.status, 201);
    const link = created.body.upload.upload_link as string;
    const bytes = Buffer.from('abcdef');
    const noVersion = await tus(link, { method: 'PATCH', headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: bytes });
    assert.deepEqual([noVersion.status, noVersion.headers.get('tus-version')], [412, '1.0.0']);
    assert.equal((await tus(link, { method: 'PATCH', headers: { ...offsetHeaders(0), 'content-type': 'application/octet-stream' }, body: bytes })).status, 415);
    assert.equal((await tus(link, { method: 'PATCH', headers: offsetHeaders(2), body: bytes })).status, 409);
    assert.equal((await tus(`${vm.url}/tus/files/nope`, { method: 'PATCH', headers: offsetHeaders(0), body: bytes })).status, 404);
    const first = await tus(link, { method: 'PATCH', headers: offsetHeaders(0), body: bytes.subarray(0, 4) });
    assert.deepEqual([first.status, first.headers.get('upload-offset'), first.headers.get('tus-resumable')], [204, '4', '1.0.0']);
    const head = await tus(link, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    assert.deepEqual([head.status, head.headers.get('upload-offset'), head.headers.get('upload-length')], [200, '4', '6']);
    assert.equal((await tus(link, { method: 'HEAD' })).status, 412);
    assert.equal((await tus(link, { method: 'PATCH', headers: offsetHeaders(4), body: Buffer.from('efg') })).status, 413);
    assert.deepEqual(vm.videos().find((v) => v.name === 'tus')!.received, 6, 'what fitted was kept');
    assert.deepEqual(vm.patches().slice(-6).map((p) => p.status), [412, 415, 409, 404, 204, 413]);
  });

  it('the transcode: in_progress for the configured reads, then complete; fields filter the answer', async () => {
    const created = await create({ name: 'transcoded', upload: { approach: 'tus', size: '3' } });
    const uri = created.body.uri as string;
    const fields = '?fields=uri,upload.status,transcode.status,link';
    assert.deepEqual((await api(`${uri}${fields}`)).body, { uri, link: created.body.link, upload: { status: 'in_progress' }, transcode: null });
    await tus(created.body.upload.upload_link, { method: 'PATCH', headers: offsetHeaders(0), body: Buffer.from('abc') });
    assert.equal((await api(`${uri}${fields}`)).body.transcode.status, 'in_progress');
    const done = (await api(`${uri}${fields}`)).body;
    assert.deepEqual([done.upload.status, done.transcode.status], ['complete', 'complete']);
    const other = vm.addUser({ name: 'Eve' });
    const eve = vm.oauth.issue(other.id, APP.clientId, VIMEO_SCOPES).accessToken;
    // The video is public (privacy.view anybody): another member reads it, without its upload link;
    // a private one is answered as missing.
    const seen = await api(`${uri}?fields=uri,upload.upload_link`, { token: eve });
    assert.deepEqual([seen.status, seen.body], [200, { uri, upload: { upload_link: null } }], 'another member reads a public video');
    const hidden = await create({ name: 'hidden', privacy: { view: 'nobody' }, upload: { approach: 'tus', size: '3' } });
    assert.equal((await api(hidden.body.uri, { token: eve })).body.error_code, 5000, 'another member cannot read a private one');
  });

  it('every API answer carries the rate-limit headers; past the limit a 429', async () => {
    vm.setRateLimit({ limit: 2, windowMs: 60_000 });
    try {
      const other = vm.addUser({ name: 'Busy' });
      const busy = vm.oauth.issue(other.id, APP.clientId, VIMEO_SCOPES).accessToken;
      const first = await api('/me', { token: busy });
      assert.deepEqual([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')], ['2', '1']);
      assert.match(first.headers.get('x-ratelimit-reset')!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      await api('/me', { token: busy });
      const refused = await api('/me', { token: busy });
      assert.deepEqual([refused.status, refused.body.error_code, refused.headers.get('x-ratelimit-remaining')], [429, 9000, '0']);
    } finally {
      vm.setRateLimit({ limit: 1000, windowMs: 60_000 });
    }
  });

  it('comments: 2207 without text, 3413 when comments are off, listed newest first unless asked otherwise', async () => {
    const video = (await create({ name: 'talk', upload: { approach: 'tus', size: '1' } })).body.uri as string;
    assert.equal((await api(`${video}/comments`, { json: { text: ' ' } })).body.error_code, 2207);
    const one = await api(`${video}/comments`, { json: { text: 'one' } });
    assert.equal(one.status, 201);
    assert.match(one.body.uri, new RegExp(`^${video}/comments/\\d+$`));
    await api(`${video}/comments`, { json: { text: 'two' } });
    assert.deepEqual((await api(`${video}/comments`)).body.data.map((c: any) => c.text), ['two', 'one']);
    const asc = (await api(`${video}/comments?direction=asc&per_page=1`)).body;
    assert.deepEqual([asc.total, asc.data.map((c: any) => c.text), asc.paging.next !== null], [2, ['one'], true]);
    const closed = (await create({ name: 'closed', upload: { approach: 'tus', size: '1' }, privacy: { comments: 'nobody' } })).body.uri;
    assert.deepEqual([(await api(`${closed}/comments`, { json: { text: 'hi' } })).status, (await api(`${closed}/comments`, { json: { text: 'hi' } })).body.error_code], [403, 3413]);
  });
});
