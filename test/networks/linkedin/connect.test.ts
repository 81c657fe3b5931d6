// Connecting LinkedIn end to end over real HTTP: auth-url -> LinkedIn's consent page (the emulator
// consents at once) -> Crier's callback -> a pending session listing the member and the
// organizations they administer -> finalize -> the accounts listed. Then the 60-day tokens: an app
// without programmatic refresh is disconnected (once) when its token expires and is revived by
// connecting again; a partner app's token is refreshed and its unrotated refresh token kept.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeId } from '../../../src/core/ids.ts';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../../emulators/index.ts';
import type { LinkedInMember } from '../../../emulators/linkedin/server.ts';
import { accountRowsText, assertAuthorizeUrl, callbackUrl, connectPending, finalizeConnection, makeTokenDue, pendingConnection, refreshDueAccount, refreshTokens, refreshWhenDue, registerApp, startConnectServer, stopConnectServer, storedAccount, tokenExpiredEvents } from '../../helpers/connect.ts';
import type { TestOrg, TestServer } from '../../helpers/harness.ts';

let li: LinkedInEmulator;
let server: TestServer;
/** Registered the app without refresh tokens (most LinkedIn apps). */
let org: TestOrg;
/** Registered a partner app (programmatic refresh tokens). */
let partnerOrg: TestOrg;
const APP = { clientId: 'crier-linkedin', clientSecret: 'crier-linkedin-secret' };
const PARTNER = { clientId: 'crier-linkedin-partner', clientSecret: 'partner-secret' };
const SIXTY_DAYS_MS = 60 * 24 * 3600 * 1000;

before(async () => {
  ({ emulator: li, server, org } = await startConnectServer('linkedin', await startLinkedInEmulator(), APP));
  li.addApp({ ...PARTNER, redirectUris: [callbackUrl(server, 'linkedin')], refreshTokens: true });
  partnerOrg = await server.createOrg();
  await registerApp(server, partnerOrg, 'linkedin', PARTNER);
});
after(() => stopConnectServer(server, li));

/** A member administering `orgs` organizations, signed in on the emulator. */
function member(orgs = 0, input: Parameters<LinkedInEmulator['addUser']>[0] = {}) {
  const m = li.addUser(input);
  const organizations = Array.from({ length: orgs }, (_, i) => li.addOrganization({ localizedName: `Org ${m.sub} ${i}`, vanityName: `org-${m.sub.toLowerCase()}-${i}`, admins: [m.sub] }));
  li.signIn(m.sub);
  return { member: m, organizations };
}


/** Connects the signed-in member only (pending session, then finalize); returns the account's ids. */
async function connectMember(who: TestOrg, m: LinkedInMember): Promise<{ id: string; rawId: number }> {
  const { session } = await connectPending(server, who, 'linkedin');
  const res = await finalizeConnection(server, session, [`urn:li:person:${m.sub}`]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.connectedAccounts[0].id;
  return { id, rawId: decodeId(id)! };
}

const userinfo = (token: string) => fetch(`${li.url}/v2/userinfo`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

describe('connecting LinkedIn', () => {
  test('the authorize URL: www.linkedin.com path, code flow, space-separated member and organization scopes, no PKCE', async () => {
    member();
    const { trip } = await connectPending(server, org, 'linkedin');
    assertAuthorizeUrl(trip.authUrl, `${li.url}/oauth/v2/authorization`, {
      response_type: 'code', client_id: APP.clientId, redirect_uri: `${server.config.publicBaseUrl}/oauth/callback/linkedin`, state: /^[A-Za-z0-9_-]{43}$/, code_challenge: null,
      scope: ['openid', 'profile', 'email', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'].join(' '),
    });
  });

  test('pick from the member and two organizations; finalize two; the session is then gone', async () => {
    const { member: m, organizations: [first, second] } = member(2, { givenName: 'Grace', familyName: 'Hopper', email: 'grace.hopper@example.com' });
    const { session } = await connectPending(server, org, 'linkedin', { tenant_id: 'tenant_li' });

    // The session token alone reads it (no API key), and no token is shown.
    const listed = await pendingConnection(server, session);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.data.network, 'linkedin');
    assert.deepEqual(listed.body.data.availablePages, [
      { id: `urn:li:person:${m.sub}`, type: 'member', name: 'Grace Hopper', username: 'grace.hopper', profilePictureUrl: m.picture },
      { id: `urn:li:organization:${first!.id}`, type: 'organization', name: first!.localizedName, username: first!.vanityName, profilePictureUrl: null },
      { id: `urn:li:organization:${second!.id}`, type: 'organization', name: second!.localizedName, username: second!.vanityName, profilePictureUrl: null },
    ]);
    assert.doesNotMatch(JSON.stringify(listed.body), /AQ-(at|rt)-/);

    // An id that was not offered: 400, and the session still works.
    const bad = await finalizeConnection(server, session, [`urn:li:organization:${first!.id}`, 'urn:li:organization:1']);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.details[0].field, 'selectedPageIds[1]');
    assert.equal((await pendingConnection(server, session)).status, 200);

    const done = await finalizeConnection(server, session, [`urn:li:person:${m.sub}`, `urn:li:organization:${second!.id}`]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.connectedAccounts.length, 2);
    const all = (await server.request('GET', '/v1/social-accounts?network=linkedin', { key: org.key })).body.data;
    const view = (id: string) => {
      const a = all.find((x: any) => x.network_unique_id === id);
      return a && { username: a.username, nickname: a.nickname, picture: a.profile_picture_url, tenantId: a.tenantId, accountType: a.accountType, isActive: a.isActive };
    };
    assert.deepEqual(view(`urn:li:person:${m.sub}`), { username: 'grace.hopper', nickname: 'Grace Hopper', picture: m.picture, tenantId: 'tenant_li', accountType: 'member', isActive: 1 });
    assert.deepEqual(view(`urn:li:organization:${second!.id}`), { username: second!.vanityName, nickname: second!.localizedName, picture: null, tenantId: 'tenant_li', accountType: 'organization', isActive: 1 });
    assert.equal(view(`urn:li:organization:${first!.id}`), undefined);

    // Both publish with the member's token (sealed, never in plaintext), which works at LinkedIn.
    const memberRow = await storedAccount(server, decodeId(done.body.connectedAccounts.find((a: any) => a.accountType === 'member').id)!);
    const orgRow = await storedAccount(server, decodeId(done.body.connectedAccounts.find((a: any) => a.accountType === 'organization').id)!);
    assert.equal(memberRow.access, orgRow.access);
    assert.equal(await userinfo(memberRow.access!), 200);
    assert.equal(memberRow.refresh, null);
    const dump = await accountRowsText(server);
    assert.ok(!dump.includes(memberRow.access!));

    // Consumed: a second finalize and a read are 404.
    assert.equal((await finalizeConnection(server, session, [`urn:li:person:${m.sub}`])).status, 404);
    assert.equal((await pendingConnection(server, session)).status, 404);
  });

  test('an expired session is a 410', async () => {
    member(1);
    const { session } = await connectPending(server, org, 'linkedin');
    await server.db.query(`UPDATE pending_connections SET expires_at = now() - interval '1 second' WHERE org_id = $1`, [org.orgId]);
    assert.equal((await pendingConnection(server, session)).status, 410);
    const { member: m } = member();
    assert.equal((await finalizeConnection(server, session, [`urn:li:person:${m.sub}`])).status, 410);
  });

  test('a member without organization access is offered alone', async () => {
    const { member: m } = member(0);
    const { session } = await connectPending(server, org, 'linkedin');
    const listed = await pendingConnection(server, session);
    assert.deepEqual(listed.body.data.availablePages.map((p: any) => p.id), [`urn:li:person:${m.sub}`]);
  });
});

describe('LinkedIn tokens without programmatic refresh', () => {
  test('stored for ~60 days without a refresh token; left alone before expiry; disconnected once after; reconnecting revives the same account', async () => {
    const { member: m } = member();
    const account = await connectMember(org, m);
    const stored = await storedAccount(server, account.rawId);
    assert.equal(stored.refresh, null);
    assert.ok(Math.abs(stored.expiresAt!.getTime() - (Date.now() + SIXTY_DAYS_MS)) < 60_000, stored.expiresAt!.toISOString());

    // Expiring in a minute: nothing can refresh it, so it is not touched yet.
    await makeTokenDue(server, account.rawId);
    const early = (await refreshTokens(server)).get(account.rawId);
    assert.ok(early === undefined || early === 'skipped', String(early));
    assert.equal((await storedAccount(server, account.rawId)).active, true);

    // Expired: inactive, one account.token_expired, even after a second pass.
    await server.db.query(`UPDATE social_accounts SET token_expires_at = now() - interval '1 minute' WHERE id = $1`, [account.rawId]);
    assert.equal((await refreshTokens(server)).get(account.rawId), 'disconnected');
    assert.equal((await refreshTokens(server)).get(account.rawId), undefined);
    const listed = (await server.request('GET', `/v1/social-accounts/${account.id}`, { key: org.key })).body.data;
    assert.equal(listed.isActive, 0);
    const events = await tokenExpiredEvents(server, org.orgId, account.rawId);
    assert.equal(events.length, 1);
    assert.equal(events[0].data.network, 'linkedin');

    // Connecting again: same account, active, a fresh 60-day token.
    li.signIn(m.sub);
    const again = await connectMember(org, m);
    assert.equal(again.id, account.id);
    const revived = await storedAccount(server, account.rawId);
    assert.equal(revived.active, true);
    assert.notEqual(revived.access, stored.access);
    assert.ok(revived.expiresAt!.getTime() > Date.now() + SIXTY_DAYS_MS - 60_000);
    assert.equal((await tokenExpiredEvents(server, org.orgId, account.rawId)).length, 1);
  });
});

describe('LinkedIn tokens of a partner app (programmatic refresh)', () => {
  test('a due token is refreshed; the new one works; the unrotated refresh token stays stored', async () => {
    const { member: m } = member();
    const account = await connectMember(partnerOrg, m);
    assert.ok((await storedAccount(server, account.rawId)).refresh);
    assert.equal((await refreshTokens(server)).get(account.rawId), undefined);

    const { before, now: after } = await refreshDueAccount(server, account.rawId, 'refreshed');
    assert.notEqual(after.access, before.access);
    assert.equal(after.refresh, before.refresh);
    assert.ok(after.expiresAt!.getTime() > Date.now() + SIXTY_DAYS_MS - 60_000);
    assert.equal(await userinfo(after.access!), 200);

    // An answer without refresh_token keeps the stored one, which still works.
    li.omitNextRefreshToken();
    assert.equal(await refreshWhenDue(server, account.rawId), 'refreshed');
    assert.equal((await storedAccount(server, account.rawId)).refresh, before.refresh);
    assert.equal(await refreshWhenDue(server, account.rawId), 'refreshed');
  });

  test('a revoked refresh token: inactive and exactly one account.token_expired', async () => {
    const { member: m } = member();
    const account = await connectMember(partnerOrg, m);
    li.revokeUser(m.sub);
    assert.equal(await refreshWhenDue(server, account.rawId), 'disconnected');
    assert.equal(await refreshWhenDue(server, account.rawId), undefined);
    assert.equal((await storedAccount(server, account.rawId)).active, false);
    const events = await tokenExpiredEvents(server, partnerOrg.orgId, account.rawId);
    assert.equal(events.length, 1);
    assert.match(events[0].data.error, /^linkedin: invalid_grant/);
  });
});
