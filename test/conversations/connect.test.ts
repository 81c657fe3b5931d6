// The messaging scope on connect: `scopes: ["messaging"]` on the auth URL adds the network's messaging
// permissions to the Facebook dialog, and the account connected through it (after the page pick) is
// recorded as able to receive and send direct messages; a connect without it is not, even for the
// same account connected again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFacebookEmulator, type FacebookEmulator } from '../../emulators/facebook/server.ts';
import { decodeId } from '../../src/core/ids.ts';
import { MESSAGING_SCOPES, INSTAGRAM_SCOPES } from '../../src/networks/instagram/oauth.ts';
import { authorizeTrip, connectPending, finalizeConnection, pendingConnection, startConnectServer, stopConnectServer } from '../helpers/connect.ts';
import type { TestOrg, TestServer } from '../helpers/harness.ts';

let fb: FacebookEmulator, server: TestServer, org: TestOrg;
const APP = { clientId: '5550001', clientSecret: 'messaging-connect-secret' };

before(async () => ({ emulator: fb, server, org } = await startConnectServer('instagram', await startFacebookEmulator(), APP)));
after(() => stopConnectServer(server, fb));

async function connect(body: Record<string, unknown>): Promise<{ accountId: string }> {
  const { session } = await connectPending(server, org, 'instagram', body);
  const view = await pendingConnection(server, session);
  const done = await finalizeConnection(server, session, [view.body.data.availablePages[0].id]);
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return { accountId: done.body.connectedAccounts[0].id };
}

async function messagingOf(accountId: string): Promise<boolean> {
  const { rows } = await server.db.query<{ messaging: boolean }>('SELECT messaging FROM social_accounts WHERE id = $1', [decodeId(accountId)]);
  return rows[0]!.messaging;
}

describe('connecting with the messaging scope', () => {
  test('scopes: ["messaging"] adds the messaging permissions to the dialog; without it they are not asked', async () => {
    fb.signIn(fb.addUser({ pages: [{ instagram: { username: 'dm.brand' } }] }).id);
    const plain = await authorizeTrip(server, org, 'instagram', {});
    assert.equal(plain.authUrl.searchParams.get('scope'), INSTAGRAM_SCOPES.join(','));
    const asked = await authorizeTrip(server, org, 'instagram', { scopes: ['messaging'] });
    assert.equal(asked.authUrl.searchParams.get('scope'), [...INSTAGRAM_SCOPES, ...MESSAGING_SCOPES].join(','));
  });

  test('the account connected with it can message; connected again without it, it cannot (403)', async () => {
    fb.signIn(fb.addUser({ pages: [{ instagram: { username: 'dm.shop' } }] }).id);
    const { accountId } = await connect({ scopes: ['messaging'] });
    assert.equal(await messagingOf(accountId), true);
    const allowed = await server.request('POST', '/v1/conversations', { key: org.key, body: { social_account_id: accountId, text: 'hi' } });
    assert.equal(allowed.status, 400, 'past the scope check: the comment is what is missing');
    assert.deepEqual(allowed.body.details.map((d: any) => d.field), ['instagram.comment_id', 'instagram.author_id']);

    const again = await connect({});
    assert.equal(again.accountId, accountId);
    assert.equal(await messagingOf(accountId), false);
    const refused = await server.request('POST', '/v1/conversations', { key: org.key, body: { social_account_id: accountId, text: 'hi', instagram: { comment_id: '1', author_id: '2' } } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'messaging_not_enabled');
  });

  test('only "messaging" is a scope, and only for networks with direct messages', async () => {
    const unknown = await server.request('POST', '/v1/social-networks/instagram/auth-url', { key: org.key, body: { scopes: ['publish'] } });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body.details.map((d: any) => d.field), ['scopes']);
    const elsewhere = await server.request('POST', '/v1/social-networks/facebook/auth-url', { key: org.key, body: { scopes: ['messaging'] } });
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.body.details[0].message, /networks with direct messages only \(instagram\)/);
  });
});
