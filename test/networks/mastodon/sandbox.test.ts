// The Mastodon sandbox: `crier start --sandbox` connects @sandbox on the emulated instance out of the
// box with its access token, validated by the same call a user's connect makes. (A thread with an image
// from a running sandbox: test/sandbox/cross-post.test.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { mastodonEmulator } from '../../../src/networks/mastodon/sandbox.ts';

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
