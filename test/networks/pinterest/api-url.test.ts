// CRIER_PINTEREST_API_URL: where pins are created and boards read when it is not api.pinterest.com
// (an app with Trial access must use Pinterest's sandbox API, and is told so when it does not).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPinterestEmulator, type PinterestEmulator } from '../../../emulators/pinterest/server.ts';
import { loadConfig } from '../../../src/config.ts';
import { NETWORK_LIST } from '../../../src/networks/registry.ts';
import type { TestOrg } from '../../helpers/harness.ts';
import { PNG_1X1, startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';

const TRIAL_REFUSAL = 'Apps with Trial access may not create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead.';

describe('CRIER_PINTEREST_API_URL', () => {
  let production: PinterestEmulator;
  let sandbox: PinterestEmulator;
  let stack: PublishingStack;
  let org: TestOrg;

  before(async () => {
    production = await startPinterestEmulator();
    sandbox = await startPinterestEmulator();
    stack = await startPublishingStack({ CRIER_PINTEREST_BASE_URL: production.url, CRIER_PINTEREST_API_URL: sandbox.url });
    sandbox.trustCa(stack.media.ca);
    org = await stack.server.createOrg();
  });
  after(async () => {
    await stack.close();
    await production.close();
    await sandbox.close();
  });

  it('is read with the other settings, and unset leaves the real hosts', () => {
    assert.deepEqual(loadConfig({ CRIER_PINTEREST_API_URL: 'https://api-sandbox.pinterest.com/' }, NETWORK_LIST).networks.pinterest, { baseUrl: undefined, apiUrl: 'https://api-sandbox.pinterest.com' });
    assert.deepEqual(loadConfig({}, NETWORK_LIST).networks.pinterest, { baseUrl: undefined });
  });

  it('pins are created and boards read there, not at the base URL', async () => {
    const user = sandbox.addUser({ username: 'trial_app_user' });
    const board = sandbox.addBoard({ ownerId: user.id, name: 'Sandbox board' });
    const account = await stack.server.addAccount(org, 'pinterest', 'trial_app_user', { networkUniqueId: user.id, accessToken: sandbox.issueToken(user.id) });
    const listed = await stack.server.request('GET', `/v1/social-accounts/${account.id}/boards`, { key: org.key });
    assert.deepEqual(listed.body.data.map((b: any) => b.id), [board.id]);
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'to the sandbox', media: [{ url: `${stack.media.url}/cat.png`, filename: 'cat.png' }] }], pinterest: { board_id: board.id } } });
    const post = await stack.waitForPost(org, created.body.post.id, undefined, 30_000);
    assert.equal(post.socialAccounts[0].status, 'published', post.socialAccounts[0].error);
    assert.deepEqual(sandbox.pins().map((p) => [p.id, p.files[0]!.bytes]), [[post.socialAccounts[0].platformPostId, PNG_1X1.length]]);
    assert.equal(production.calls().length, 0, 'nothing went to the base URL');
  });

  it('Pinterest\'s refusal of a Trial app in production fails saying what to set', async () => {
    const user = sandbox.addUser({ username: 'trial_in_production' });
    const board = sandbox.addBoard({ ownerId: user.id });
    const account = await stack.server.addAccount(org, 'pinterest', 'trial_in_production', { networkUniqueId: user.id, accessToken: sandbox.issueToken(user.id) });
    sandbox.failNext({ status: 403, method: 'POST', path: '/v5/pins', body: { code: 29, message: TRIAL_REFUSAL } });
    const created = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [account.id], containers: [{ content: 'trial', media: [{ url: `${stack.media.url}/cat.png`, filename: 'cat.png' }] }], pinterest: { board_id: board.id } } });
    const post = await stack.waitForPost(org, created.body.post.id, undefined, 30_000);
    assert.equal(post.socialAccounts[0].status, 'failed');
    assert.equal(post.socialAccounts[0].error, `pinterest: the account may not pin to board ${board.id} (${TRIAL_REFUSAL} (code 29); an app with Trial access pins to Pinterest's sandbox (its pins visible only to the account): set CRIER_PINTEREST_API_URL=https://api-sandbox.pinterest.com, or get Standard access for the app)`);
  });
});
