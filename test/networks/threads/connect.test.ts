// Connecting a Threads profile end to end over real HTTP: auth-url -> the Threads Authorization
// Window (the emulator consents at once) -> Crier's callback (code exchange for a 1-hour token, then
// the exchange for the 60-day token Crier stores) -> 302 with the account id. Then the refresh of the
// long-lived token itself (no refresh token exists): refused under 24 h of age without harm, done
// after, and an expired or revoked token ending in one account.token_expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startThreadsEmulator, type ThreadsEmulator } from '../../../emulators/index.ts';
import { accountRowsText, assertAuthorizeUrl, connectNewUser, connectTrip, expectConsentDeclined, expectDisconnectedOnce, finalizeConnection, listedAccount, listedProfile, pendingConnection, reconnectSameAccount, refreshDueAccount, refreshTokens, startConnectServer, stopConnectServer, storedAccount, tokenExpiredEvents } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';
import { decodeId } from '../../../src/core/ids.ts';

let threads: ThreadsEmulator, server: TestServer, org: TestOrg;
const APP = { clientId: '1239876543210', clientSecret: 'crier-threads-secret' };
const DAY_MS = 24 * 3600 * 1000;

before(async () => ({ emulator: threads, server, org } = await startConnectServer('threads', await startThreadsEmulator(), APP)));
after(() => stopConnectServer(server, threads));

/** A new Threads user, signed in and connected; the account's ids. */
const connectUser = (input: Parameters<ThreadsEmulator['addUser']>[0] = {}, body: Record<string, unknown> = {}) => connectNewUser(server, org, 'threads', threads, (user) => user.id, input, body);

const me = (token: string) =>
  fetch(`${threads.url}/v1.0/me?fields=id,username`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('connecting a Threads profile', () => {
  test('the authorize URL: threads.com /oauth/authorize with client_id, comma-separated scopes, code, state; no PKCE', async () => {
    const user = threads.addUser();
    threads.signIn(user.id);
    const { authUrl } = await connectTrip(server, org, 'threads');
    assertAuthorizeUrl(authUrl, `${threads.url}/oauth/authorize`, {
      client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/threads`, response_type: 'code', state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      scope: 'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies,threads_delete,threads_manage_insights',
    });
  });

  test('the full flow: account listed with the profile, the 60-day token sealed, reconnecting keeps the id', async () => {
    const { user, accountId, rawId } = await connectUser({ username: 'crier.threads', name: 'Crier on Threads', profilePictureUrl: 'https://cdn.example/threads.jpg' }, { tenant_id: 'tenant_threads' });
    assert.deepEqual(await listedProfile(server, org, accountId), {
      network: 'threads', username: 'crier.threads', nickname: 'Crier on Threads', uid: user.id, picture: 'https://cdn.example/threads.jpg', tenantId: 'tenant_threads', accountType: 'personal', isActive: 1,
    });

    const first = await storedAccount(server, rawId);
    assert.ok(first.access);
    assert.equal(first.refresh, null, 'Threads has no refresh token');
    const dump = await accountRowsText(server, rawId);
    assert.ok(!dump.includes(first.access!));
    assert.ok(!Buffer.from(first.row.access_token_enc).includes(first.access!));

    // Reconnecting the same Threads user: same account, a new token.
    threads.signIn(user.id);
    assert.notEqual((await reconnectSameAccount(server, org, 'threads', accountId)).access, first.access);
  });

  test('quirk: the stored token is the long-lived one (exchanged after the code; ~60 days; alive past the 1-hour short-lived token)', async () => {
    const calls = threads.tokenCalls().length;
    const { user, rawId } = await connectUser();
    assert.deepEqual(threads.tokenCalls().slice(calls).map((c) => c.grant), ['authorization_code', 'th_exchange_token']);
    const { access, expiresAt } = await storedAccount(server, rawId);
    const days = (expiresAt!.getTime() - Date.now()) / DAY_MS;
    assert.ok(days > 59.9 && days <= 60, `expiry ${days} days ahead`);
    threads.clock.advance(2 * 3600 * 1000);
    assert.deepEqual(await me(access!), { status: 200, body: { id: user.id, username: user.username } });
  });

  test('without redirect_uri the callback answers JSON; a declined consent comes back as ?error', async () => {
    const user = threads.addUser({ username: 'json.threads' });
    threads.signIn(user.id);
    const trip = await connectTrip(server, org, 'threads');
    assert.equal(trip.callback.status, 200);
    const body = (await trip.callback.json()) as any;
    assert.equal(body.data.username, 'json.threads');
    assert.doesNotMatch(JSON.stringify(body), /token/i);

    threads.oauth.signIn(undefined);
    await expectConsentDeclined(server, org, 'threads');
  });
});

describe('refreshing a Threads token', () => {
  test('a fresh token is not due; a token under 24 h old is refused by Meta and stays as it was (no disconnect)', async () => {
    const { rawId } = await connectUser();
    assert.equal((await refreshTokens(server)).get(rawId), undefined);
    const { before, now } = await refreshDueAccount(server, rawId, 'failed');
    assert.deepEqual([now.active, now.access], [true, before.access]);
    assert.deepEqual(await tokenExpiredEvents(server, org.orgId, rawId), []);
    await server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '59 days' WHERE id = $1`, [rawId]);
  });

  test('two days on and due: refreshed with the access token; the new token works and the expiry moved 60 days out', async () => {
    const { user, rawId } = await connectUser();
    threads.clock.advance(2 * DAY_MS);
    const refreshCalls = threads.tokenCalls('th_refresh_token').length;
    const { before, now } = await refreshDueAccount(server, rawId, 'refreshed');
    assert.equal(threads.tokenCalls('th_refresh_token').length, refreshCalls + 1);
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, null);
    assert.ok(now.expiresAt!.getTime() > Date.now() + 59 * DAY_MS, `expiry ${now.expiresAt!.toISOString()}`);
    assert.deepEqual(await me(now.access!), { status: 200, body: { id: user.id, username: user.username } });
    assert.equal(now.active, true);
  });

  test("the redirect back carries the session the hosted API's clients read beside account_id: it lists the one account and finalizes to it unchanged", async () => {
    const { accountId, trip, user } = await connectUser();
    const session = trip.redirectedTo!.searchParams.get('session')!;
    assert.ok(session, `no ?session= on ${trip.redirectedTo}`);
    const pending = await pendingConnection(server, session);
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    assert.deepEqual(pending.body.data.availablePages.map((p: any) => [p.id, p.username]), [[user.id, user.username]]);
    const stored = () => server.db.query('SELECT xmin::text AS row_version, access_token_enc FROM social_accounts WHERE id = $1', [decodeId(accountId)]).then((r) => r.rows);
    const before = await stored();
    const done = await finalizeConnection(server, session, [user.id]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body.connectedAccounts.map((a: any) => a.id), [accountId]);
    assert.deepEqual(await stored(), before, 'the account connected at the callback is not written again');
    assert.equal((await finalizeConnection(server, session, [user.id])).status, 404, 'a session is used once');
  });

  test('a one-account session whose account was removed meanwhile: finalize says so (409), nothing is connected', async () => {
    const { accountId, trip, user } = await connectUser();
    const session = trip.redirectedTo!.searchParams.get('session')!;
    assert.equal((await server.request('DELETE', `/v1/social-accounts/${accountId}`, { key: org.key })).status, 200);
    const done = await finalizeConnection(server, session, [user.id]);
    assert.equal(done.status, 409, JSON.stringify(done.body));
    assert.equal(done.body.code, 'account_removed');
    assert.equal((await server.request('GET', `/v1/social-accounts?networkUniqueId=${user.id}`, { key: org.key })).body.data.length, 0);
  });

  test('an expired token: disconnected, isActive 0, exactly one account.token_expired even on later passes', async () => {
    const { accountId, rawId, user } = await connectUser();
    threads.clock.advance(61 * DAY_MS);
    const event = await expectDisconnectedOnce(server, org, accountId, rawId);
    assert.equal(event.data.network, 'threads');
    assert.equal(event.data.username, user.username);
    assert.match(event.data.error, /code 190\/463/);
  });

  test('a revoked token (the user removed the app): disconnected once; connecting again makes it active, the reason gone', async () => {
    const { accountId, rawId, user } = await connectUser();
    threads.clock.advance(2 * DAY_MS);
    threads.revokeUser(user.id);
    await expectDisconnectedOnce(server, org, accountId, rawId);
    threads.signIn(user.id);
    await reconnectSameAccount(server, org, 'threads', accountId);
    const listed = await listedAccount(server, org, accountId);
    assert.deepEqual([listed.isActive, listed.disconnectedReason, listed.disconnectedAt], [1, null, null]);
  });
});
