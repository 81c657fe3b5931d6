// The Discord sandbox: `crier start --sandbox` connects the webhook "sandbox_discord" out of the box with
// its URL, validated by the same call a user's connect makes; that URL posts to the channel, and a
// thread with an image published there from the sandbox arrives as two messages, the first with the file.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../../src/db/embedded.ts';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { discordEmulator } from '../../../src/networks/discord/sandbox.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { emulatorCalls, runSandbox, sandboxApi, waitForSettledPost } from '../../helpers/sandbox.ts';

let emulator: SandboxEmulator;
let seeds: SandboxAccountSeed[];

before(async () => {
  emulator = await discordEmulator.start('127.0.0.1');
  seeds = await emulator.sandboxAccounts!();
});
after(() => emulator.close());

test('the sandbox webhook is seeded with its URL, which posts to its channel', async () => {
  assert.deepEqual(seeds.map((s) => [s.network, s.username, s.nickname]), [['discord', 'sandbox_discord', 'Sandbox Discord']]);
  const [seed] = seeds as [SandboxAccountSeed];
  assert.ok(seed.credential!.startsWith(`${emulator.url}/api/webhooks/${seed.networkUniqueId}/`));
  const sent = await fetch(`${seed.credential}?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'hello from the sandbox' }) });
  assert.equal(sent.status, 200);
  assert.equal((await sent.json() as { webhook_id: string }).webhook_id, seed.networkUniqueId);
});

test('in `crier start --sandbox`, a thread with an image reaches the sandbox channel beside X and Bluesky: two executions, the first multipart', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-discord-sandbox-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const api = sandboxApi(env);
  const run = await runSandbox(t, env);
  const upload = await api('/v1/media/upload', run.key, { method: 'POST', body: JSON.stringify({ filename: 'photo.jpg' }) });
  assert.ok((await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(await makeJpeg('640x480')) })).ok);
  const image = (await api(`/v1/media/${upload.body.data.id}/confirm`, run.key, { method: 'POST', body: '{}' })).body.data;
  const accounts = ['discord', 'x', 'bluesky'].map((network) => run.accounts.find((a) => a.network === network)!);
  const created = await api('/v1/posts', run.key, { method: 'POST', body: JSON.stringify({
    accounts: accounts.map((a) => a.id),
    containers: [{ content: 'A thread with an image', media: [{ url: image.url, filename: 'photo.jpg' }] }, { content: 'and its follow-up' }],
  }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const settled = await waitForSettledPost(api, run.key, created.body.post.id, 30);
  assert.deepEqual(settled.socialAccounts.map((d: any) => d.status), ['published', 'published', 'published'], JSON.stringify(settled.socialAccounts));
  assert.ok(settled.socialAccounts.some((d: any) => /^https:\/\/discord\.com\/channels\/\d+\/\d+\/\d+$/.test(String(d.platformPostUrl))), 'the message\'s link');
  const calls = (await emulatorCalls(run, 'discord')).filter((c: any) => c.method === 'POST');
  assert.deepEqual(calls.map((c: any) => [c.contentType.split(';')[0], c.query.wait, c.status]), [['multipart/form-data', ['true'], 200], ['application/json', ['true'], 200]]);
});
