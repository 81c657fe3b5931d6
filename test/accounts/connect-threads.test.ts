// Connecting a Threads profile end to end over real HTTP: auth-url -> the Threads Authorization
// Window (the emulator consents at once) -> Crier's callback (code exchange for a 1-hour token, then
// the exchange for the 60-day token Crier stores) -> 302 with the account id. Then the refresh of the
// long-lived token itself (no refresh token exists): refused under 24 h of age without harm, done
// after, and an expired or revoked token ending in one account.token_expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/ids.ts';
import { startThreadsEmulator, type ThreadsEmulator } from '../../emulators/index.ts';
import { connectOne, connectTrip, listedAccount, registerApp } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let threads: ThreadsEmulator;
let server: TestServer;
let org: TestOrg;
const APP = { clientId: '1239876543210', clientSecret: 'crier-threads-secret' };
const DAY_MS = 24 * 3600 * 1000;

before(async () => {
  threads = await startThreadsEmulator();
  server = await startTestServer({ CRIER_THREADS_BASE_URL: threads.url });
  threads.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/threads`] });
  org = await server.createOrg();
  await registerApp(server, org, 'threads', APP);
});
after(async () => {
  await server.close();
  await threads.close();
});

/** A new Threads user, signed in and connected; the account's ids. */
async function connectUser(input: Parameters<ThreadsEmulator['addUser']>[0] = {}, body: Record<string, unknown> = {}) {
  const user = threads.addUser(input);
  threads.signIn(user.id);
  const { accountId } = await connectOne(server, org, 'threads', body);
  return { user, id: accountId, rawId: decodeId(accountId)! };
}

async function stored(rawId: number) {
  const row = (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  return {
    row,
    access: openSecret(server.box, rawId, 'access', row.access_token_enc),
    refresh: openSecret(server.box, rawId, 'refresh', row.refresh_token_enc),
    expiresAt: row.token_expires_at as Date,
    active: row.is_active as boolean,
  };
}

const me = (token: string) =>
  fetch(`${threads.url}/v1.0/me?fields=id,username`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const makeDue = (rawId: number) => server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [rawId]);
const refresh = () => refreshDueTokens(server.db, server.box, server.config);
const expiredEvents = async (rawId: number) =>
  (await server.db.query('SELECT type, data FROM events WHERE org_id = $1', [org.orgId])).rows.filter((e: any) => e.type === 'account.token_expired' && e.data.accountId === rawId);

describe('connecting a Threads profile', () => {
  test('the authorize URL: threads.com /oauth/authorize with client_id, comma-separated scopes, code, state; no PKCE', async () => {
    const user = threads.addUser();
    threads.signIn(user.id);
    const { authUrl } = await connectTrip(server, org, 'threads');
    const q = authUrl.searchParams;
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${threads.url}/oauth/authorize`);
    assert.equal(q.get('client_id'), APP.clientId);
    assert.equal(q.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/threads`);
    assert.equal(q.get('scope'), 'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies');
    assert.equal(q.get('response_type'), 'code');
    assert.match(q.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(q.get('code_challenge'), null);
  });

  test('the full flow: account listed with the profile, the 60-day token sealed, reconnecting keeps the id', async () => {
    const { user, id, rawId } = await connectUser(
      { username: 'crier.threads', name: 'Crier on Threads', profilePictureUrl: 'https://cdn.example/threads.jpg' },
      { tenant_id: 'tenant_threads' },
    );
    const listed = await listedAccount(server, org, id);
    assert.deepEqual(
      {
        network: listed.network, username: listed.username, nickname: listed.nickname, uid: listed.network_unique_id,
        picture: listed.profile_picture_url, tenantId: listed.tenantId, accountType: listed.accountType, isActive: listed.isActive,
      },
      {
        network: 'threads', username: 'crier.threads', nickname: 'Crier on Threads', uid: user.id,
        picture: 'https://cdn.example/threads.jpg', tenantId: 'tenant_threads', accountType: 'personal', isActive: 1,
      },
    );

    const first = await stored(rawId);
    assert.ok(first.access);
    assert.equal(first.refresh, null, 'Threads has no refresh token');
    const dump = JSON.stringify((await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a WHERE id = $1', [rawId])).rows);
    assert.ok(!dump.includes(first.access!));
    assert.ok(!Buffer.from(first.row.access_token_enc).includes(first.access!));

    // Reconnecting the same Threads user: same account, a new token.
    threads.signIn(user.id);
    const again = await connectOne(server, org, 'threads');
    assert.equal(again.accountId, id);
    assert.notEqual((await stored(rawId)).access, first.access);
  });

  test('quirk: the stored token is the long-lived one (exchanged after the code; ~60 days; alive past the 1-hour short-lived token)', async () => {
    const calls = threads.tokenCalls().length;
    const { user, rawId } = await connectUser();
    assert.deepEqual(threads.tokenCalls().slice(calls).map((c) => c.grant), ['authorization_code', 'th_exchange_token']);
    const { access, expiresAt } = await stored(rawId);
    const days = (expiresAt.getTime() - Date.now()) / DAY_MS;
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
    const declined = await connectTrip(server, org, 'threads', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(declined.callback.status, 302);
    assert.equal(declined.redirectedTo?.searchParams.get('error'), 'access_denied');
    assert.equal(declined.redirectedTo?.searchParams.get('account_id'), null);
  });
});

describe('refreshing a Threads token', () => {
  test('a fresh token is not due; a token under 24 h old is refused by Meta and stays as it was (no disconnect)', async () => {
    const { rawId } = await connectUser();
    assert.equal((await refresh()).get(rawId), undefined);
    const before = await stored(rawId);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'failed');
    const now = await stored(rawId);
    assert.deepEqual([now.active, now.access], [true, before.access]);
    assert.deepEqual(await expiredEvents(rawId), []);
    await server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '59 days' WHERE id = $1`, [rawId]);
  });

  test('two days on and due: refreshed with the access token; the new token works and the expiry moved 60 days out', async () => {
    const { user, rawId } = await connectUser();
    const before = await stored(rawId);
    threads.clock.advance(2 * DAY_MS);
    await makeDue(rawId);
    const refreshCalls = threads.tokenCalls('th_refresh_token').length;
    assert.equal((await refresh()).get(rawId), 'refreshed');
    assert.equal(threads.tokenCalls('th_refresh_token').length, refreshCalls + 1);
    const now = await stored(rawId);
    assert.notEqual(now.access, before.access);
    assert.equal(now.refresh, null);
    assert.ok(now.expiresAt.getTime() > Date.now() + 59 * DAY_MS, `expiry ${now.expiresAt.toISOString()}`);
    assert.deepEqual(await me(now.access!), { status: 200, body: { id: user.id, username: user.username } });
    assert.equal(now.active, true);
  });

  test('an expired token: disconnected, isActive 0, exactly one account.token_expired even on later passes', async () => {
    const { id, rawId, user } = await connectUser();
    threads.clock.advance(61 * DAY_MS);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'disconnected');
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), undefined);
    assert.equal((await listedAccount(server, org, id)).isActive, 0);
    const events = await expiredEvents(rawId);
    assert.equal(events.length, 1);
    assert.equal(events[0].data.network, 'threads');
    assert.equal(events[0].data.username, user.username);
    assert.match(events[0].data.error, /code 190\/463/);
  });

  test('a revoked token (the user removed the app): disconnected once', async () => {
    const { id, rawId, user } = await connectUser();
    threads.clock.advance(2 * DAY_MS);
    threads.revokeUser(user.id);
    await makeDue(rawId);
    assert.equal((await refresh()).get(rawId), 'disconnected');
    assert.equal((await refresh()).get(rawId), undefined);
    assert.equal((await listedAccount(server, org, id)).isActive, 0);
    assert.equal((await expiredEvents(rawId)).length, 1);
  });
});
