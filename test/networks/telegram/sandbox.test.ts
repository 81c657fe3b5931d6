// The Telegram sandbox: `crier start --sandbox` connects the channel @crier_sandbox out of the box with
// the token of its administrator bot, validated by the same calls a user's connect makes; that token
// posts to the channel. (A thread with an image from a running sandbox: test/sandbox/cross-post.test.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { telegramEmulator } from '../../../src/networks/telegram/sandbox.ts';

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
