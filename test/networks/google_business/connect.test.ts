// Connecting Google Business Profile locations end to end over real HTTP against the Google emulator:
// one login reaches every location of every business account, so the callback always opens a pending
// session; the app lists it (no API key, no token in it), finalizes the picks, and each location is
// an account whose id names both the business account and the location. Sessions are single-use and
// expire; refresh keeps Google's non-rotating refresh token; a revoked grant disconnects every
// location it connected, once each.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../../emulators/index.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { accountRowsText, assertAuthorizeUrl, connectBackToApp, connectPending, connectTrip, finalizeConnection, listedAccount, makeTokenDue, pendingConnection, refreshDueAccount, refreshTokens, refreshWhenDue, startConnectServer, stopConnectServer, storedAccount, tokenExpiredEvents } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

const APP = { clientId: '777-gbp.apps.googleusercontent.com', clientSecret: 'GOCSPX-gbp-secret' };
const BUSINESS = 'https://www.googleapis.com/auth/business.manage';

let google: GoogleEmulator, server: TestServer, org: TestOrg;

before(async () => ({ emulator: google, server, org } = await startConnectServer('google_business', await startGoogleEmulator(), APP)));
after(() => stopConnectServer(server, google));

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

const gbpAccounts = (accessToken: string) => fetch(`${google.url}/v1/accounts`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status);

describe('connecting Google Business Profile locations', () => {
  test('the authorize URL is Google’s, with business.manage, offline access, a consent screen and PKCE S256', async () => {
    owner();
    const { authUrl } = await connectTrip(server, org, 'google_business');
    assertAuthorizeUrl(authUrl, `${google.url}/o/oauth2/v2/auth`, {
      client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/google_business`, response_type: 'code', code_challenge: /^[A-Za-z0-9_-]{43}$/,
      scope: BUSINESS, access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true', code_challenge_method: 'S256',
    });
  });

  test('pending session: every location listed without tokens; a bad pick keeps it; finalize connects two; a second use is a 404', async () => {
    const { ids } = owner();
    const { session } = await connectPending(server, org, 'google_business', { tenant_id: 'tenant_gbp' });

    const listed = await pendingConnection(server, session);
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

    const bad = await finalizeConnection(server, session, [ids.downtown, 'accounts/1/locations/2']);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'selectedPageIds[1]');
    assert.equal((await pendingConnection(server, session)).status, 200, 'a refused finalize leaves the session usable');

    const done = await finalizeConnection(server, session, [ids.downtown, ids.kiosk]);
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
      const { row, access, refresh: refreshToken } = await storedAccount(server, rawId);
      assert.ok(access && refreshToken);
      assert.equal(await gbpAccounts(access!), 200, 'the stored access token works at Google');
      const text = await accountRowsText(server, rawId);
      assert.ok(!text.includes(access!) && !text.includes(refreshToken!), 'tokens are not stored in plaintext');
      for (const column of [row.access_token_enc, row.refresh_token_enc]) assert.ok(!Buffer.from(column).includes(access!) && !Buffer.from(column).includes(refreshToken!));
    }

    const second = await finalizeConnection(server, session, [ids.harbor]);
    assert.equal(second.status, 404);
    assert.equal((await pendingConnection(server, session)).status, 404);

    // Connecting the same location again updates the same account.
    const { session: again } = await connectPending(server, org, 'google_business');
    const redone = await finalizeConnection(server, again, [ids.downtown]);
    assert.equal(redone.body.connectedAccounts[0].id, done.body.connectedAccounts.find((a: any) => a.network_unique_id === ids.downtown).id);
  });

  test('an expired session is a 410', async () => {
    const { ids } = owner();
    const { session } = await connectPending(server, org, 'google_business');
    await server.db.query(`UPDATE pending_connections SET expires_at = now() - interval '1 second' WHERE org_id = $1`, [org.orgId]);
    assert.equal((await pendingConnection(server, session)).status, 410);
    assert.equal((await finalizeConnection(server, session, [ids.harbor])).status, 410);
  });

  test('locations are read page by page (more than one page of 100)', async () => {
    const user = google.addUser({ businessAccounts: [{ accountName: 'Chain', locations: Array.from({ length: 130 }, (_, i) => ({ title: `Store ${i + 1}` })) }] });
    google.signIn(user.id);
    const { session } = await connectPending(server, org, 'google_business');
    const pages = (await pendingConnection(server, session)).body.data.availablePages;
    assert.equal(pages.length, 130);
    assert.equal(new Set(pages.map((p: any) => p.id)).size, 130);
  });

  test('a login that reaches no location: back with ?error=no_accounts', async () => {
    google.signIn(google.addUser({ businessAccounts: [{ accountName: 'Empty', locations: [] }] }).id);
    const back = await connectBackToApp(server, org, 'google_business');
    assert.equal(back.get('error'), 'no_accounts');
    assert.equal(back.get('session'), null);
  });

  test('refresh keeps the stored refresh token; a revoked grant disconnects each location once', async () => {
    const { user, ids } = owner();
    const { session } = await connectPending(server, org, 'google_business');
    const done = await finalizeConnection(server, session, [ids.harbor, ids.kiosk]);
    const [first, second] = done.body.connectedAccounts.map((a: any) => decodeId(a.id)!);

    const { before, now: after } = await refreshDueAccount(server, first, 'refreshed');
    assert.notEqual(after.access, before.access);
    assert.equal(after.refresh, before.refresh, 'Google sent no refresh token: the stored one stays');
    assert.equal(await gbpAccounts(after.access!), 200);

    // The locations call needs readMask, as Google's does: the adapter must always send it.
    const accountName = ids.kiosk.split('/locations/')[0];
    const noMask = await fetch(`${google.url}/v1/${accountName}/locations`, { headers: { authorization: `Bearer ${after.access}` } });
    assert.equal(noMask.status, 400);
    assert.deepEqual(((await noMask.json()) as any).error.details[0].fieldViolations, [{ field: 'read_mask', description: 'Field is required' }]);

    google.revokeUser(user.id);
    await makeTokenDue(server, first);
    await makeTokenDue(server, second);
    const outcomes = await refreshTokens(server);
    assert.deepEqual([outcomes.get(first), outcomes.get(second)], ['disconnected', 'disconnected']);
    assert.equal(await refreshWhenDue(server, first), undefined);
    const firstEvents = await tokenExpiredEvents(server, org.orgId, first);
    assert.deepEqual(firstEvents.length, 1);
    assert.deepEqual((await tokenExpiredEvents(server, org.orgId, second)).length, 1);
    assert.match(firstEvents[0]!.data.error, /^google_business: invalid_grant/);
  });
});
