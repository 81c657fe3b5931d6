// Connecting Google Business Profile locations end to end over real HTTP against the Google emulator:
// one login reaches every location of every business account, so the callback always opens a pending
// session; the app lists it (no API key, no token in it), finalizes the picks, and each location is
// an account whose id names both the business account and the location. Sessions are single-use and
// expire; refresh keeps Google's non-rotating refresh token; a revoked grant disconnects every
// location it connected, once each.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/index.ts';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/ids.ts';
import { connectPending, connectTrip, listedAccount, registerApp } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

const APP = { clientId: '777-gbp.apps.googleusercontent.com', clientSecret: 'GOCSPX-gbp-secret' };
const BUSINESS = 'https://www.googleapis.com/auth/business.manage';

let google: GoogleEmulator;
let server: TestServer;
let org: TestOrg;

before(async () => {
  google = await startGoogleEmulator();
  server = await startTestServer({ CRIER_GOOGLE_BUSINESS_BASE_URL: google.url });
  google.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/google_business`] });
  org = await server.createOrg();
  await registerApp(server, org, 'google_business', APP);
});
after(async () => {
  await server.close();
  await google.close();
});

/** A user managing two business accounts (2 + 1 locations) and an empty one, signed in. */
function owner() {
  const user = google.addUser({
    name: 'Bakery Owner',
    businessAccounts: [
      { accountName: 'Bakery Group', locations: [{ title: 'Bakery Downtown' }, { title: 'Bakery Harbor' }] },
      { accountName: 'Coffee Co', locations: [{ title: 'Coffee Kiosk' }] },
      { accountName: 'Nothing Yet', locations: [] },
    ],
  });
  google.signIn(user.id);
  const [bakery, coffee] = user.businessAccounts;
  return {
    user,
    ids: {
      downtown: `${bakery!.name}/${bakery!.locations[0]!.name}`,
      harbor: `${bakery!.name}/${bakery!.locations[1]!.name}`,
      kiosk: `${coffee!.name}/${coffee!.locations[0]!.name}`,
    },
  };
}

const pending = (session: string) => server.request('GET', `/v1/social-accounts/pending/${session}`);
const finalize = (session: string, selectedPageIds: unknown) => server.request('POST', `/v1/social-accounts/pending/${session}/finalize`, { body: { selectedPageIds } });
const makeDue = (rawId: number) => server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [rawId]);
const refresh = () => refreshDueTokens(server.db, server.box, server.config);
async function secrets(rawId: number) {
  const row = (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  return { row, access: openSecret(server.box, rawId, 'access', row.access_token_enc), refresh: openSecret(server.box, rawId, 'refresh', row.refresh_token_enc) };
}
const gbpAccounts = (accessToken: string) => fetch(`${google.url}/v1/accounts`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status);

describe('connecting Google Business Profile locations', () => {
  test('the authorize URL is Google’s, with business.manage, offline access, a consent screen and PKCE S256', async () => {
    owner();
    const { authUrl } = await connectTrip(server, org, 'google_business');
    const q = authUrl.searchParams;
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${google.url}/o/oauth2/v2/auth`);
    assert.equal(q.get('client_id'), APP.clientId);
    assert.equal(q.get('redirect_uri'), `${server.config.publicBaseUrl}/oauth/callback/google_business`);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('scope'), BUSINESS);
    assert.equal(q.get('access_type'), 'offline');
    assert.equal(q.get('prompt'), 'consent');
    assert.equal(q.get('include_granted_scopes'), 'true');
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
  });

  test('pending session: every location listed without tokens; a bad pick keeps it; finalize connects two; a second use is a 404', async () => {
    const { ids } = owner();
    const { session } = await connectPending(server, org, 'google_business', { tenant_id: 'tenant_gbp' });

    const listed = await pending(session);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.data.network, 'google_business');
    assert.deepEqual(
      listed.body.data.availablePages.map((p: any) => [p.id, p.type, p.name, p.username]).sort(),
      [
        [ids.downtown, 'location', 'Bakery Downtown', 'Bakery Downtown'],
        [ids.harbor, 'location', 'Bakery Harbor', 'Bakery Harbor'],
        [ids.kiosk, 'location', 'Coffee Kiosk', 'Coffee Kiosk'],
      ].sort(),
    );
    for (const page of listed.body.data.availablePages) assert.match(page.id, /^accounts\/\d+\/locations\/\d+$/);
    assert.doesNotMatch(JSON.stringify(listed.body), /ya29|token/i, 'no token in the session view');

    const bad = await finalize(session, [ids.downtown, 'accounts/1/locations/2']);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'selectedPageIds[1]');
    assert.equal((await pending(session)).status, 200, 'a refused finalize leaves the session usable');

    const done = await finalize(session, [ids.downtown, ids.kiosk]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(
      done.body.connectedAccounts.map((a: any) => [a.network, a.accountType, a.network_unique_id, a.username, a.nickname, a.tenantId, a.isActive]).sort(),
      [
        ['google_business', 'location', ids.downtown, 'Bakery Downtown', 'Bakery Downtown', 'tenant_gbp', 1],
        ['google_business', 'location', ids.kiosk, 'Coffee Kiosk', 'Coffee Kiosk', 'tenant_gbp', 1],
      ].sort(),
    );
    for (const account of done.body.connectedAccounts) {
      assert.deepEqual(await listedAccount(server, org, account.id).then((a) => a.network_unique_id), account.network_unique_id);
      const rawId = decodeId(account.id)!;
      const { row, access, refresh: refreshToken } = await secrets(rawId);
      assert.ok(access && refreshToken);
      assert.equal(await gbpAccounts(access!), 200, 'the stored access token works at Google');
      const text = JSON.stringify((await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a WHERE id = $1', [rawId])).rows);
      assert.ok(!text.includes(access!) && !text.includes(refreshToken!), 'tokens are not stored in plaintext');
      for (const column of [row.access_token_enc, row.refresh_token_enc]) assert.ok(!Buffer.from(column).includes(access!) && !Buffer.from(column).includes(refreshToken!));
    }

    const second = await finalize(session, [ids.harbor]);
    assert.equal(second.status, 404);
    assert.equal((await pending(session)).status, 404);

    // Connecting the same location again updates the same account.
    const { session: again } = await connectPending(server, org, 'google_business');
    const redone = await finalize(again, [ids.downtown]);
    assert.equal(redone.body.connectedAccounts[0].id, done.body.connectedAccounts.find((a: any) => a.network_unique_id === ids.downtown).id);
  });

  test('an expired session is a 410', async () => {
    const { ids } = owner();
    const { session } = await connectPending(server, org, 'google_business');
    await server.db.query(`UPDATE pending_connections SET expires_at = now() - interval '1 second' WHERE org_id = $1`, [org.orgId]);
    assert.equal((await pending(session)).status, 410);
    assert.equal((await finalize(session, [ids.harbor])).status, 410);
  });

  test('locations are read page by page (more than one page of 100)', async () => {
    const user = google.addUser({ businessAccounts: [{ accountName: 'Chain', locations: Array.from({ length: 130 }, (_, i) => ({ title: `Store ${i + 1}` })) }] });
    google.signIn(user.id);
    const { session } = await connectPending(server, org, 'google_business');
    const pages = (await pending(session)).body.data.availablePages;
    assert.equal(pages.length, 130);
    assert.equal(new Set(pages.map((p: any) => p.id)).size, 130);
  });

  test('a login that reaches no location: back with ?error=no_accounts', async () => {
    google.signIn(google.addUser({ businessAccounts: [{ accountName: 'Empty', locations: [] }] }).id);
    const trip = await connectTrip(server, org, 'google_business', { redirect_uri: 'https://app.example.com/connected' });
    assert.equal(trip.redirectedTo!.searchParams.get('error'), 'no_accounts');
    assert.equal(trip.redirectedTo!.searchParams.get('session'), null);
  });

  test('refresh keeps the stored refresh token; a revoked grant disconnects each location once', async () => {
    const { user, ids } = owner();
    const { session } = await connectPending(server, org, 'google_business');
    const done = await finalize(session, [ids.harbor, ids.kiosk]);
    const [first, second] = done.body.connectedAccounts.map((a: any) => decodeId(a.id)!);
    const before = await secrets(first);

    await makeDue(first);
    assert.equal((await refresh()).get(first), 'refreshed');
    const after = await secrets(first);
    assert.notEqual(after.access, before.access);
    assert.equal(after.refresh, before.refresh, 'Google sent no refresh token: the stored one stays');
    assert.equal(await gbpAccounts(after.access!), 200);

    // The locations call needs readMask, as Google's does: the adapter must always send it.
    const accountName = ids.kiosk.split('/locations/')[0];
    const noMask = await fetch(`${google.url}/v1/${accountName}/locations`, { headers: { authorization: `Bearer ${after.access}` } });
    assert.equal(noMask.status, 400);
    assert.deepEqual(((await noMask.json()) as any).error.details[0].fieldViolations, [{ field: 'read_mask', description: 'Field is required' }]);

    google.revokeUser(user.id);
    await makeDue(first);
    await makeDue(second);
    const outcomes = await refresh();
    assert.deepEqual([outcomes.get(first), outcomes.get(second)], ['disconnected', 'disconnected']);
    await makeDue(first);
    assert.equal((await refresh()).get(first), undefined);
    const events = (await server.db.query('SELECT type, data FROM events WHERE org_id = $1', [org.orgId])).rows.filter((e) => e.type === 'account.token_expired');
    assert.deepEqual(events.filter((e) => e.data.accountId === first).length, 1);
    assert.deepEqual(events.filter((e) => e.data.accountId === second).length, 1);
    assert.match(events.find((e) => e.data.accountId === first)!.data.error, /^google_business: invalid_grant/);
  });
});
