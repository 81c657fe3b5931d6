// Which LinkedIn apps can connect whom: an app with only "Share on LinkedIn" and "Sign In with LinkedIn
// using OpenID Connect" (no Community Management API) connects members once CRIER_LINKEDIN_SCOPES asks
// for its scopes alone (LinkedIn refuses an authorization naming a scope of a product the app lacks);
// and a member is offered every organization they may post for, not only those they administer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import { NETWORK_LIST } from '../../../src/networks/registry.ts';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../../emulators/index.ts';
import { assertAuthorizeUrl, callbackUrl, connectBackToApp, connectPending, finalizeConnection, pendingConnection, registerApp, startConnectServer, stopConnectServer } from '../../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/harness.ts';

const SHARE_ONLY = { clientId: 'li-share-only', clientSecret: 'share-secret' };
const SHARE_SCOPES = ['openid', 'profile', 'email', 'w_member_social'];

describe('a LinkedIn app without the Community Management API (the operator\'s app)', () => {
  let li: LinkedInEmulator;
  let server: TestServer;
  let org: TestOrg;

  before(async () => {
    li = await startLinkedInEmulator();
    server = await startTestServer({
      CRIER_LINKEDIN_BASE_URL: li.url, CRIER_LINKEDIN_CLIENT_ID: SHARE_ONLY.clientId, CRIER_LINKEDIN_CLIENT_SECRET: SHARE_ONLY.clientSecret,
      CRIER_LINKEDIN_SCOPES: 'openid, profile email  w_member_social',
    });
    // The app's products: Share on LinkedIn and Sign In with LinkedIn using OpenID Connect.
    li.addApp({ ...SHARE_ONLY, redirectUris: [callbackUrl(server, 'linkedin')], scopes: SHARE_SCOPES });
    org = await server.createOrg();
  });
  after(() => stopConnectServer(server, li));

  test('CRIER_LINKEDIN_SCOPES is read as a list; unset, the settings carry none (the defaults apply)', () => {
    assert.deepEqual(loadConfig({ CRIER_LINKEDIN_SCOPES: 'openid, profile email  w_member_social,openid' }, NETWORK_LIST).networks.linkedin, { baseUrl: undefined, scopes: SHARE_SCOPES });
    assert.deepEqual(loadConfig({}, NETWORK_LIST).networks.linkedin, { baseUrl: undefined });
  });

  test('asks for the configured scopes only; the member connects and is offered alone', async () => {
    const m = li.addUser({ givenName: 'Sam', familyName: 'Share' });
    li.addOrganization({ admins: [m.sub] });
    li.signIn(m.sub);
    const { session, trip } = await connectPending(server, org, 'linkedin');
    assertAuthorizeUrl(trip.authUrl, `${li.url}/oauth/v2/authorization`, { client_id: SHARE_ONLY.clientId, scope: SHARE_SCOPES.join(' ') });
    const listed = await pendingConnection(server, session);
    assert.deepEqual(listed.body.data.availablePages.map((p: { id: string }) => p.id), [`urn:li:person:${m.sub}`]);
    const done = await finalizeConnection(server, session, [`urn:li:person:${m.sub}`]);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.connectedAccounts[0].accountType, 'member');
  });
});

describe('the default scopes with such an app', () => {
  let li: LinkedInEmulator;
  let server: TestServer;
  let org: TestOrg;

  before(async () => {
    li = await startLinkedInEmulator();
    server = await startTestServer({ CRIER_LINKEDIN_BASE_URL: li.url });
    li.addApp({ ...SHARE_ONLY, redirectUris: [callbackUrl(server, 'linkedin')], scopes: SHARE_SCOPES });
    org = await server.createOrg();
    await registerApp(server, org, 'linkedin', SHARE_ONLY);
  });
  after(() => stopConnectServer(server, li));

  test('LinkedIn refuses the organization scopes: the user comes back with an error, nobody is connected', async () => {
    const m = li.addUser({});
    li.signIn(m.sub);
    const back = await connectBackToApp(server, org, 'linkedin');
    assert.equal(back.get('account_id'), null);
    assert.equal(back.get('session'), null);
    assert.equal(back.get('error'), 'unauthorized_scope_error', back.toString());
  });
});

describe('organizations offered at connect', () => {
  let li: LinkedInEmulator;
  let server: TestServer;
  let org: TestOrg;

  before(async () => {
    ({ emulator: li, server, org } = await startConnectServer('linkedin', await startLinkedInEmulator(), { clientId: 'li-community', clientSecret: 'community-secret' }));
  });
  after(() => stopConnectServer(server, li));

  test('every organization where the member holds an approved posting role (ADMINISTRATOR, DIRECT_SPONSORED_CONTENT_POSTER, CONTENT_ADMINISTRATOR), no other', async () => {
    const m = li.addUser({});
    const [admin, dsc, content, analyst, recruiter, requested] = ['Admin', 'Dsc', 'Content', 'Analyst', 'Recruiter', 'Requested'].map((name) => li.addOrganization({ localizedName: name }));
    li.grantRole(admin!.id, m.sub, 'ADMINISTRATOR');
    li.grantRole(dsc!.id, m.sub, 'DIRECT_SPONSORED_CONTENT_POSTER');
    li.grantRole(content!.id, m.sub, 'CONTENT_ADMINISTRATOR');
    li.grantRole(analyst!.id, m.sub, 'ANALYST');
    li.grantRole(recruiter!.id, m.sub, 'RECRUITING_POSTER');
    li.grantRole(requested!.id, m.sub, 'ADMINISTRATOR', 'REQUESTED');
    li.signIn(m.sub);
    const { session } = await connectPending(server, org, 'linkedin');
    const listed = await pendingConnection(server, session);
    assert.deepEqual(listed.body.data.availablePages.map((p: { id: string; name: string }) => [p.id, p.name]), [
      [`urn:li:person:${m.sub}`, m.name],
      [`urn:li:organization:${admin!.id}`, 'Admin'],
      [`urn:li:organization:${dsc!.id}`, 'Dsc'],
      [`urn:li:organization:${content!.id}`, 'Content'],
    ]);
  });
});
