// Reconciling a status after a crash (adapter.ts): within the Idempotency-Key's hour the adapter
// answers 'absent' so the engine sends again under the same key (the crash tests show the instance then
// posts nothing twice); past the hour the key is gone, so it reads the account's statuses since the
// reservation: one match is the status, none is absent, several cannot be told apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startMastodonEmulator, type Account, type MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import { PublishError } from '../../../src/core/errors.ts';
import type { PublishInput } from '../../../src/networks/contract.ts';
import { createMastodonAdapter } from '../../../src/networks/mastodon/adapter.ts';

let masto: MastodonEmulator;
let account: Account;

before(async () => {
  masto = await startMastodonEmulator();
  account = masto.addAccount({ username: 'reconciled' });
});
after(() => masto.close());

const input = (owned: string[] = []) => ({
  account: { id: 1, orgId: 1, network: 'mastodon', username: 'reconciled', networkUniqueId: `${new URL(masto.url).host}:${account.id}`, serviceUrl: masto.url, accessToken: null, refreshToken: null, credential: account.token },
  containers: [{ content: 'the root', media: [] }],
  block: undefined,
  userFetch: () => assert.fail('the configured instance is called directly'),
  ownedElsewhere: async (ids: string[]) => new Set(ids.filter((id) => owned.includes(id))),
} as unknown as PublishInput);

const post = (text: string) => fetch(`${masto.url}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: text }) })
  .then(async (r) => (await r.json() as { id: string }).id);

describe('reconciling a Mastodon status', () => {
  const prepared = (owned?: string[]) => createMastodonAdapter({ trusted: masto.url }).prepare(input(owned));

  test('within the key\'s hour: absent, so the engine sends again under the same key', async () => {
    const reservation = { idempotencyKey: 'k', reservedAt: new Date(Date.now() - 10 * 60_000).toISOString() };
    assert.equal(await (await prepared()).reconcile(0, reservation, undefined), 'absent');
  });

  test('past the hour: the one status since the reservation; none is absent; two cannot be told apart', async () => {
    const reservation = { idempotencyKey: 'k', reservedAt: new Date(Date.now() - 2 * 3600_000).toISOString() };
    const p = await prepared();
    assert.equal(await p.reconcile(0, reservation, undefined), 'absent', 'the account has posted nothing since');
    const id = await post('the root');
    const found = await p.reconcile(0, reservation, undefined);
    assert.notEqual(found, 'absent');
    assert.equal((found as { platformId: string }).platformId, id);
    const other = await post('another');
    await assert.rejects(p.reconcile(0, reservation, undefined), (e: unknown) => e instanceof PublishError && e.kind === 'unknown' && /2 statuses of the account since then could be it/.test(e.message));
    // A status another destination owns is not this one's.
    assert.equal(((await (await prepared([other])).reconcile(0, reservation, undefined)) as { platformId: string }).platformId, id);
  });
});
