// The Telegram sandbox: `crier start --sandbox` connects the channel @crier_sandbox out of the box with
// the token of its administrator bot, validated by the same calls a user's connect makes; that token
// posts to the channel, and a thread with an image published there from the sandbox arrives.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../../src/db/embedded.ts';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { telegramEmulator } from '../../../src/networks/telegram/sandbox.ts';
import { makeJpeg } from '../../helpers/media.ts';
import { emulatorCalls, runSandbox, sandboxApi, waitForSettledPost } from '../../helpers/sandbox.ts';

let emulator: SandboxEmulator;
let seeds: SandboxAccountSeed[];

before(async () => {
  emulator = await telegramEmulator.start('127.0.0.1');
  seeds = await emulator.sandboxAccounts!();
});
after(() => emulator.close());

const call = (method: string, token: string, params: Record<string, unknown>) => fetch(`${emulator.url}/bot${token}/${method}`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params),
}).then(async (r) => ({ status: r.status, body: await r.json() as any }));

test('the sandbox channel is seeded with its bot\'s token, which posts there', async () => {
  assert.deepEqual(seeds.map((s) => [s.network, s.username, s.nickname]), [['telegram', 'crier_sandbox', 'Sandbox Telegram']]);
  const [seed] = seeds as [SandboxAccountSeed];
  assert.match(seed.credential!, /^\d+:[A-Za-z0-9_-]+$/);
  const chat = await call('getChat', seed.credential!, { chat_id: '@crier_sandbox' });
  assert.equal(String(chat.body.result.id), seed.networkUniqueId);
  const sent = await call('sendMessage', seed.credential!, { chat_id: seed.networkUniqueId, text: 'hello from the sandbox' });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.result.sender_chat.username, 'crier_sandbox');
});

test('in `crier start --sandbox`, a thread with an image reaches the sandbox channel beside X and Bluesky: sendPhoto, then sendMessage', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-telegram-sandbox-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const api = sandboxApi(env);
  const run = await runSandbox(t, env);
  const upload = await api('/v1/media/upload', run.key, { method: 'POST', body: JSON.stringify({ filename: 'photo.jpg' }) });
  assert.ok((await fetch(upload.body.data.upload_url, { method: 'PUT', body: new Uint8Array(await makeJpeg('640x480')) })).ok);
  const image = (await api(`/v1/media/${upload.body.data.id}/confirm`, run.key, { method: 'POST', body: '{}' })).body.data;
  const accounts = ['telegram', 'x', 'bluesky'].map((network) => run.accounts.find((a) => a.network === network)!);
  const created = await api('/v1/posts', run.key, { method: 'POST', body: JSON.stringify({
    accounts: accounts.map((a) => a.id),
    containers: [{ content: 'A thread with an image', media: [{ url: image.url, filename: 'photo.jpg' }] }, { content: 'and its reply' }],
  }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const settled = await waitForSettledPost(api, run.key, created.body.post.id, 30);
  assert.deepEqual(settled.socialAccounts.map((d: any) => d.status), ['published', 'published', 'published'], JSON.stringify(settled.socialAccounts));
  const telegram = settled.socialAccounts.find((d: any) => String(d.platformPostUrl).startsWith('https://t.me/crier_sandbox/'));
  assert.ok(telegram, 'the channel\'s public link');
  const calls = (await emulatorCalls(run, 'telegram')).map((c: any) => `${c.method} ${c.path} ${c.status}`);
  assert.deepEqual(calls.filter((c: string) => /send/.test(c)), ['POST /bot[redacted]/sendPhoto 200', 'POST /bot[redacted]/sendMessage 200']);
});
