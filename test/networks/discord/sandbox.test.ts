// The Discord sandbox: `crier start --sandbox` connects the webhook "sandbox_discord" out of the box with
// its URL, validated by the same call a user's connect makes; that URL posts to the channel. (A thread
// with an image from a running sandbox: test/sandbox/cross-post.test.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { discordEmulator } from '../../../src/networks/discord/sandbox.ts';

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
