// `crier start --sandbox` with the environment a newcomer has (no HOST): the emulators that download
// the media a post names (Instagram, Threads, TikTok, Google Business Profile) fetch it through Crier's
// SSRF guard. A host name that resolves to loopback reaches nothing on this machine; Crier's own
// uploaded media is still fetched and published; and the sandbox listens on loopback only.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { runSandbox, sandboxApi, waitForSettledPost, type SandboxRun } from '../helpers/sandbox.ts';
import { makeJpeg } from '../helpers/media.ts';

let dataDir: string;
let env: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;
/** A service listening on this machine's loopback, as a database or an admin port would. */
let inside: Server;
let connections = 0;
/** One sandbox run for the file (each start takes a while), stopped when the file ends. */
let run: SandboxRun;
const stops: (() => unknown)[] = [];

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-sandbox-guard-'));
  // No HOST: where the sandbox listens is its own default.
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: undefined, LOG_LEVEL: 'warn' };
  api = sandboxApi(env);
  inside = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
  run = await runSandbox({ after: (stop) => stops.push(stop) }, env);
});
after(async () => {
  for (const stop of stops) await stop();
  await new Promise((resolve) => inside.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

/** The networks whose emulator downloads a post's media itself. */
const DOWNLOADING = ['threads', 'instagram', 'google_business', 'tiktok'];

const accountsOf = () => DOWNLOADING.map((network) => run.accounts.find((a) => a.network === network)!);

const postImage = (url: string) => api('/v1/posts', run.key, {
  method: 'POST',
  body: JSON.stringify({ accounts: accountsOf().map((a) => a.id), containers: [{ content: 'An image', media: [{ url, filename: 'photo.jpg' }] }] }),
});

test('a media URL whose host name resolves to loopback is refused by the guard: the service there receives no connection', async () => {
  const port = (inside.address() as { port: number }).port;
  const created = await postImage(`https://localhost:${port}/photo.jpg`);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const settled = await waitForSettledPost(api, run.key, created.body.post.id, 60);
  assert.deepEqual(settled.socialAccounts.map((a: any) => [a.network, a.status]), DOWNLOADING.map((network) => [network, 'failed']));
  assert.equal(connections, 0, 'nothing on this machine was reached');
  const business = settled.socialAccounts.find((a: any) => a.network === 'google_business');
  assert.match(business.error, /localhost resolves to blocked address 127\.0\.0\.1 \(loopback\)/, 'Google says why it could not fetch the photo: the guard\'s reason');
});

test('Crier\'s own uploaded image is still fetched by the emulators and published on each', async () => {
  const upload = await api('/v1/media/upload', run.key, { method: 'POST', body: JSON.stringify({ filename: 'photo.jpg' }) });
  const put = await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(await makeJpeg('1080x1080')) });
  assert.ok(put.ok, `PUT ${put.status}`);
  const image = (await api(`/v1/media/${upload.body.data.id}/confirm`, run.key, { method: 'POST', body: '{}' })).body.data;
  assert.match(image.url, /^http:\/\/localhost:\d+\/media\//, 'served by this Crier, on loopback');
  const created = await postImage(image.url);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const settled = await waitForSettledPost(api, run.key, created.body.post.id, 60);
  // (TikTok's note says the photos wait in the creator's inbox: published, as TikTok's direct posts of photos are.)
  assert.deepEqual(settled.socialAccounts.map((a: any) => [a.network, a.status]), DOWNLOADING.map((network) => [network, 'published']), JSON.stringify(settled.socialAccounts));
});

test('without HOST the sandbox listens on loopback only: its guide names 127.0.0.1, and another address of this machine is refused', async (t) => {
  assert.match(run.crier.output(), new RegExp(`curl -s http://127\\.0\\.0\\.1:${run.port}/v1/posts`));
  assert.equal((await api('/v1/social-accounts', run.key)).status, 200, 'loopback is served');
  const outward = Object.values(os.networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
  if (!outward) return t.skip('this machine has no address besides loopback');
  const refused = await new Promise<string>((resolve) => {
    const socket = connect(Number(run.port), outward.address);
    socket.once('connect', () => { socket.destroy(); resolve('connected'); });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  assert.equal(refused, 'ECONNREFUSED', `${outward.address}:${run.port}`);
});
