// The Mastodon sandbox: `crier start --sandbox` connects @sandbox on the emulated instance out of the
// box with its access token, validated by the same call a user's connect makes; a thread with an image
// published there from the sandbox arrives: the upload, then two statuses, the second a reply.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../../src/db/embedded.ts';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { mastodonEmulator } from '../../../src/networks/mastodon/sandbox.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { emulatorCalls, runSandbox, sandboxApi, waitForSettledPost } from '../../helpers/sandbox.ts';

let emulator: SandboxEmulator;
let seeds: SandboxAccountSeed[];

before(async () => {
  emulator = await mastodonEmulator.start('127.0.0.1');
  seeds = await emulator.sandboxAccounts!();
});
after(() => emulator.close());

test('the sandbox account is seeded with its token, which the instance accepts; its handle carries the instance\'s domain, not the port of this run', async () => {
  const domain = 'sandbox.mastodon.test';
  assert.deepEqual(seeds.map((s) => [s.network, s.username, s.nickname, s.serviceUrl]), [['mastodon', `sandbox@${domain}`, 'Sandbox Mastodon', emulator.url]]);
  const [seed] = seeds as [SandboxAccountSeed];
  const me = await fetch(`${emulator.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${seed.credential}` } });
  assert.equal(me.status, 200);
  assert.equal(`${domain}:${(await me.json() as { id: string }).id}`, seed.networkUniqueId);
});

test('in `crier start --sandbox`, a thread with an image reaches the sandbox instance beside X and Bluesky', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-mastodon-sandbox-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const api = sandboxApi(env);
  const run = await runSandbox(t, env);
  const upload = await api('/v1/media/upload', run.key, { method: 'POST', body: JSON.stringify({ filename: 'photo.jpg' }) });
  assert.ok((await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(await makeJpeg('640x480')) })).ok);
  const image = (await api(`/v1/media/${upload.body.data.id}/confirm`, run.key, { method: 'POST', body: '{}' })).body.data;
  const accounts = ['mastodon', 'x', 'bluesky'].map((network) => run.accounts.find((a) => a.network === network)!);
  const created = await api('/v1/posts', run.key, { method: 'POST', body: JSON.stringify({
    accounts: accounts.map((a) => a.id),
    containers: [{ content: 'A thread with an image', media: [{ url: image.url, filename: 'photo.jpg', altText: 'a test pattern' }] }, { content: 'and its reply' }],
  }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const settled = await waitForSettledPost(api, run.key, created.body.post.id, 30);
  assert.deepEqual(settled.socialAccounts.map((d: any) => d.status), ['published', 'published', 'published'], JSON.stringify(settled.socialAccounts));
  const calls = (await emulatorCalls(run, 'mastodon')).map((c: any) => `${c.method} ${c.path} ${c.status}`);
  assert.deepEqual(calls.filter((c: string) => /statuses|media/.test(c) && c.startsWith('POST')), ['POST /api/v2/media 200', 'POST /api/v1/statuses 200', 'POST /api/v1/statuses 200']);
});
