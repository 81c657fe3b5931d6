// The Vimeo emulator against Vimeo's own Node client, `@vimeo/vimeo` (3.0.3, with `tus-js-client` for
// the bytes), used unchanged: a token, an upload by tus (`client.upload`), /me/videos, editing a video
// (PATCH /videos/{id}, api.yaml's edit_video), and the scopes api.yaml's `security` asks of the
// routes served (upload, edit, interact). The client has no base-URL option: its module-level
// `request_defaults` (protocol, hostname, port) is what points it at a host, set here and restored.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startVimeoEmulator, type VimeoEmulator } from '../../emulators/index.ts';

const require = createRequire(import.meta.url);
const vimeoPackage = require('@vimeo/vimeo') as {
  Vimeo: new (clientId: string, clientSecret: string, accessToken?: string) => VimeoClient;
  vimeo_module: { request_defaults: { protocol: string; hostname: string; port: number } };
};

interface VimeoClient {
  request(options: object, callback: (err: unknown, body: any, status: number) => void): void;
  upload(file: string, params: object, complete: (uri: string) => void, progress: () => void, failed: (error: unknown) => void): void;
}

const APP = { clientId: 'vimeo-js-client', clientSecret: 'vimeo-js-secret', redirectUris: ['http://localhost/cb'] };
const ALL_SCOPES = ['public', 'private', 'upload', 'edit', 'interact', 'delete'];

let vimeo: VimeoEmulator;
let dir: string;
let userId: string;
let saved: { protocol: string; hostname: string; port: number };

before(async () => {
  vimeo = await startVimeoEmulator();
  vimeo.addApp(APP);
  userId = vimeo.addUser({ account: 'pro' }).id;
  dir = await mkdtemp(path.join(os.tmpdir(), 'vimeo-client-'));
  const defaults = vimeoPackage.vimeo_module.request_defaults;
  saved = { protocol: defaults.protocol, hostname: defaults.hostname, port: defaults.port };
  const url = new URL(vimeo.url);
  Object.assign(defaults, { protocol: 'http:', hostname: url.hostname, port: Number(url.port) });
});
after(async () => {
  Object.assign(vimeoPackage.vimeo_module.request_defaults, saved);
  await rm(dir, { recursive: true, force: true });
  await vimeo.close();
});

const clientWith = (scopes = ALL_SCOPES) => new vimeoPackage.Vimeo(APP.clientId, APP.clientSecret, vimeo.oauth.issue(userId, APP.clientId, scopes).accessToken);

function call(client: VimeoClient, options: object): Promise<{ status: number; body: any; error: unknown }> {
  return new Promise((resolve) => client.request(options, (error, body, status) => {
    resolve({ status, error, body: typeof body === 'string' ? JSON.parse(body) : body });
  }));
}

async function upload(client: VimeoClient, bytes: Buffer, params: object): Promise<string> {
  const file = path.join(dir, `clip-${bytes.length}-${Date.now()}.mp4`);
  await writeFile(file, bytes);
  return new Promise((resolve, reject) => client.upload(file, params, resolve, () => {}, (e) => reject(new Error(String(e)))));
}

describe('@vimeo/vimeo against the emulator', () => {
  test('a token authenticates: GET /me is the member', async () => {
    const { status, body } = await call(clientWith(), { path: '/me' });
    assert.equal(status, 200);
    assert.equal(body.uri, `/users/${userId}`);
  });

  test('client.upload: POST /me/videos then tus; the video holds the bytes; /me/videos lists it', async () => {
    const client = clientWith();
    const bytes = Buffer.alloc(70_000, 4);
    const uri = await upload(client, bytes, { name: 'By the client', description: 'tus', privacy: { view: 'unlisted' } });
    const video = vimeo.videos().find((v) => v.uri === uri)!;
    assert.equal(video.size, bytes.length);
    assert.equal(video.received, bytes.length);
    assert.equal(video.sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(video.privacy.view, 'unlisted');
    const { status, body } = await call(client, { path: '/me/videos', query: { fields: 'uri,name,upload.status', per_page: 10 } });
    assert.equal(status, 200);
    assert.deepEqual(body.data.find((v: { uri: string }) => v.uri === uri), { uri, name: 'By the client', upload: { status: 'complete' } });
  });

  test('a repeated `fields` is the union of its values (Vimeo\'s JSON filter is a comma-separated list)', async () => {
    const client = clientWith();
    const uri = await upload(client, Buffer.alloc(800, 6), { name: 'Filtered' });
    const { status, body } = await call(client, { path: `${uri}?fields=uri&fields=name` });
    assert.equal(status, 200);
    assert.deepEqual(body, { uri, name: 'Filtered' });
  });

  test('edit a video: PATCH /videos/{id} with the `edit` scope answers 200 with the video changed', async () => {
    const client = clientWith();
    const uri = await upload(client, Buffer.alloc(1000, 1), { name: 'Before' });
    const { status, body } = await call(client, { path: uri, method: 'PATCH', query: { name: 'After', description: 'edited', privacy: { view: 'nobody', comments: 'nobody' } } });
    assert.equal(status, 200);
    assert.equal(body.name, 'After');
    assert.equal(body.description, 'edited');
    assert.equal(body.privacy.view, 'nobody');
    const video = vimeo.videos().find((v) => v.uri === uri)!;
    assert.deepEqual([video.name, video.privacy.comments], ['After', 'nobody']);
  });

  test('an edit outside api.yaml\'s enums is 400 2204; without the `edit` scope 403', async () => {
    const uri = await upload(clientWith(), Buffer.alloc(1000, 2), { name: 'Kept' });
    const bad = await call(clientWith(), { path: uri, method: 'PATCH', query: { privacy: { view: 'everyone' } } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error_code, 2204);
    const narrow = await call(clientWith(['public', 'private', 'upload']), { path: uri, method: 'PATCH', query: { name: 'Changed' } });
    assert.equal(narrow.status, 403);
    assert.match(narrow.body.error, /"edit" scope/);
    assert.equal(vimeo.videos().find((v) => v.uri === uri)!.name, 'Kept');
  });

  test('creating a video needs the `upload` scope, commenting the `interact` one (api.yaml security)', async () => {
    const noUpload = await call(clientWith(['public', 'private']), { path: '/me/videos', method: 'POST', query: { upload: { approach: 'tus', size: 10 } } });
    assert.equal(noUpload.status, 403);
    assert.match(noUpload.body.error, /"upload" scope/);
    const uri = await upload(clientWith(), Buffer.alloc(500, 3), { name: 'Comments' });
    const noInteract = await call(clientWith(['public', 'private', 'upload']), { path: `${uri}/comments`, method: 'POST', query: { text: 'hi' } });
    assert.equal(noInteract.status, 403);
    assert.match(noInteract.body.error, /"interact" scope/);
    const comment = await call(clientWith(), { path: `${uri}/comments`, method: 'POST', query: { text: 'hi' } });
    assert.equal(comment.status, 201);
  });
});
