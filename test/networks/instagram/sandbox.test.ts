// The Facebook emulator as `crier start --sandbox` starts it (src/networks/facebook/sandbox.ts): it
// seeds a Facebook Page and its linked Instagram account, each connected with the Page's token, and
// that token publishes on Instagram through the emulator.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { facebookEmulator } from '../../../src/networks/facebook/sandbox.ts';

let emulator: SandboxEmulator;

before(async () => {
  emulator = await facebookEmulator.start('127.0.0.1');
});
after(() => emulator.close());

test('the sandbox seeds a Page and its Instagram account (@sandbox_ig), whose token reads the publishing limit', async () => {
  const seeds = await emulator.sandboxAccounts!();
  assert.deepEqual(seeds.map((s) => [s.network, s.username, s.networkUniqueId]), [
    ['facebook', 'sandboxpage', '100000000000099'],
    ['instagram', 'sandbox_ig', '17841400000000099'],
  ]);
  const ig = seeds[1]!;
  const res = await fetch(`${emulator.url}/v23.0/${ig.networkUniqueId}/content_publishing_limit?fields=quota_usage,config`, { headers: { authorization: `OAuth ${ig.accessToken}` } });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { data: [{ quota_usage: 0, config: { quota_total: 50, quota_duration: 86400 } }] });
  const again = await emulator.sandboxAccounts!();
  assert.equal(again.length, 2, 'asked again (a second org), the same accounts with a new token');
  assert.notEqual(again[1]!.accessToken, ig.accessToken);
});
