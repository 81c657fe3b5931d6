// GET /v1/social-accounts/:id/boards over real HTTP: Crier pages through the account's boards on the
// Pinterest emulator (GET /v5/boards with bookmark) with the account's token, and lists each as
// {id, name, description, privacy} — the ids pinterest.board_id takes; Pinterest's refusals come back
// as Crier's errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startPinterestEmulator, type PinterestEmulator } from '../../../emulators/pinterest/server.ts';
import type { TestAccount, TestOrg } from '../../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';

describe('listing a Pinterest account\'s boards', () => {
  let pin: PinterestEmulator;
  let stack: PublishingStack;
  let org: TestOrg;

  before(async () => {
    pin = await startPinterestEmulator();
    stack = await startPublishingStack({ CRIER_PINTEREST_BASE_URL: pin.url }, { worker: false });
    org = await stack.server.createOrg();
  });
  after(async () => {
    await stack.close();
    await pin.close();
  });

  const connected = async (username: string, scopes?: string[]): Promise<TestAccount & { userId: string }> => {
    const user = pin.addUser({ username });
    const account = await stack.server.addAccount(org, 'pinterest', username, { networkUniqueId: user.id, accessToken: pin.issueToken(user.id, scopes) });
    return { ...account, userId: user.id };
  };
  const boards = (accountId: string, key = org.key) => stack.server.request('GET', `/v1/social-accounts/${accountId}/boards`, { key });

  it('lists every board of the account, across pages, and no one else\'s', async () => {
    const ada = await connected('ada_boards');
    const other = pin.addUser({ username: 'someone' });
    pin.addBoard({ ownerId: other.id, name: 'Theirs' });
    const made = [
      pin.addBoard({ ownerId: ada.userId, name: 'Recipes', description: 'Things to bake', privacy: 'PUBLIC' }),
      pin.addBoard({ ownerId: ada.userId, name: 'Gifts', privacy: 'SECRET' }),
      pin.addBoard({ ownerId: ada.userId, name: 'Shop', description: 'Our products', privacy: 'PROTECTED' }),
    ];
    for (let i = 0; i < 260; i++) made.push(pin.addBoard({ ownerId: ada.userId, name: `Board ${i}` }));
    const res = await boards(ada.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.success, true);
    assert.deepEqual(res.body.data.slice(0, 3), [
      { id: made[0]!.id, name: 'Recipes', description: 'Things to bake', privacy: 'PUBLIC' },
      { id: made[1]!.id, name: 'Gifts', description: null, privacy: 'SECRET' },
      { id: made[2]!.id, name: 'Shop', description: 'Our products', privacy: 'PROTECTED' },
    ]);
    assert.deepEqual(res.body.data.map((b: any) => b.id), made.map((b) => b.id), 'all 263 boards, in order, over two pages');
    const reads = pin.calls().filter((c) => c.path === '/v5/boards' && c.userId === ada.userId);
    assert.deepEqual(reads.map((c) => c.status), [200, 200], 'two pages of 250');
  });

  it('an account without boards lists none', async () => {
    const empty = await connected('no_boards');
    assert.deepEqual((await boards(empty.id)).body, { success: true, data: [] });
  });

  it('a revoked token: 409 asking to reconnect', async () => {
    const bob = await connected('bob_boards');
    pin.revokeUser(bob.userId);
    const res = await boards(bob.id);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'account_token_rejected');
    assert.match(res.body.error, /Authentication failed\. \(code 2\).*reconnect the account/);
  });

  it('a token without boards:read: Pinterest\'s 403 code 29 comes back as the network\'s refusal (400)', async () => {
    const cy = await connected('cy_boards', ['pins:read', 'pins:write', 'user_accounts:read']);
    const res = await boards(cy.id);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body, { success: false, error: 'pinterest: You are not permitted to access that resource. (code 29)', code: 'network_refused' });
  });

  it('an account of another network has no boards (400); another org\'s account is not found (404)', async () => {
    const x = await stack.server.addAccount(org, 'x', 'someone_x');
    const res = await boards(x.id);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'not_supported');
    const ada = await connected('ada_other_org');
    const other = await stack.server.createOrg();
    assert.equal((await boards(ada.id, other.key)).status, 404);
  });
});
