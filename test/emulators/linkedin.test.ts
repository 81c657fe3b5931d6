// The LinkedIn emulator's contract over real HTTP: the consent page, the token endpoint (client
// credentials in the form, codes once, LinkedIn's invalid_request for a bad code, refresh tokens
// only for partner apps and without rotation), the 401 bodies with serviceErrorCode, and the
// LinkedIn-Version header every /rest/ call needs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../emulators/index.ts';

let li: LinkedInEmulator;
const REDIRECT = 'https://crier.example/oauth/callback/linkedin';
const APP = { clientId: 'li-app', clientSecret: 'li-secret', redirectUris: [REDIRECT] };
const PARTNER = { clientId: 'li-partner', clientSecret: 'partner-secret', redirectUris: [REDIRECT], refreshTokens: true };
const BAD_CODE = {
  error: 'invalid_request',
  error_description: 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists',
};

before(async () => {
  li = await startLinkedInEmulator();
  li.addApp(APP);
  li.addApp(PARTNER);
});
after(() => li.close());

async function consent(app: { clientId: string } = APP, scope = 'openid profile email w_member_social rw_organization_admin', redirectUri = REDIRECT): Promise<URL> {
  const url = new URL(`${li.url}/oauth/v2/authorization`);
  url.search = new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: redirectUri, state: 'st', scope }).toString();
  const res = await fetch(url, { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  return new URL(res.headers.get('location')!);
}

const codeFor = async (app: { clientId: string } = APP) => (await consent(app)).searchParams.get('code')!;

async function token(form: Record<string, string>) {
  const res = await fetch(`${li.url}/oauth/v2/accessToken`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: (await res.json()) as any };
}

const codeGrant = (code: string, app = APP, redirectUri = REDIRECT) =>
  token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.clientId, client_secret: app.clientSecret });

async function api(path: string, accessToken: string | null, headers: Record<string, string> = { 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' }) {
  const res = await fetch(`${li.url}${path}`, { headers: { ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}), ...headers } });
  return { status: res.status, body: (await res.json()) as any };
}

describe('LinkedIn emulator: consent page', () => {
  test('redirects with code and state; refuses an unknown app or redirect URI; unauthorized scopes come back as an error', async () => {
    const member = li.addUser({});
    li.signIn(member.sub);
    const back = await consent();
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'st');
    assert.ok(back.searchParams.get('code'));

    const unknown = await fetch(`${li.url}/oauth/v2/authorization?response_type=code&client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}&scope=openid`, { redirect: 'manual' });
    assert.equal(unknown.status, 400);
    const elsewhere = await fetch(`${li.url}/oauth/v2/authorization?response_type=code&client_id=${APP.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&scope=openid`, { redirect: 'manual' });
    assert.equal(elsewhere.status, 400);

    li.addApp({ clientId: 'li-basic', clientSecret: 's', redirectUris: [REDIRECT], scopes: ['openid', 'profile', 'email', 'w_member_social'] });
    const refused = await consent({ clientId: 'li-basic' }, 'openid profile rw_organization_admin');
    assert.equal(refused.searchParams.get('error'), 'unauthorized_scope_error');
    assert.equal(refused.searchParams.get('code'), null);
  });
});

describe('LinkedIn emulator: token endpoint', () => {
  test('a code works once, with its app, secret and redirect URI; bad codes get LinkedIn\'s invalid_request', async () => {
    const member = li.addUser({});
    li.signIn(member.sub);
    const code = await codeFor();
    assert.deepEqual((await codeGrant(code, { ...APP, clientSecret: 'wrong' })).body.error, 'invalid_client');
    // The failed attempt above was refused before the code was looked at: it still works once.
    const first = await codeGrant(code);
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(first.body.expires_in, 5184000);
    assert.equal(first.body.scope, 'openid,profile,email,w_member_social,rw_organization_admin');
    assert.deepEqual(await codeGrant(code), { status: 400, body: BAD_CODE });

    const other = await codeFor();
    assert.deepEqual(await codeGrant(other, APP, 'https://crier.example/elsewhere'), { status: 400, body: BAD_CODE });
    const late = await codeFor();
    li.clock.advance(31 * 60 * 1000);
    assert.deepEqual(await codeGrant(late), { status: 400, body: BAD_CODE });
    const missing = await token({ grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: APP.clientId, client_secret: APP.clientSecret });
    assert.deepEqual(missing, { status: 400, body: { error: 'invalid_request', error_description: 'A required parameter "code" is missing' } });
  });

  test('partner apps get a 365-day refresh token that is not rotated (other apps get none, see above)', async () => {
    const member = li.addUser({});
    li.signIn(member.sub);
    const granted = (await codeGrant(await codeFor(PARTNER), PARTNER)).body;
    assert.equal(granted.refresh_token_expires_in, 31536000);
    li.clock.advance(10 * 24 * 3600 * 1000);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token, client_id: PARTNER.clientId, client_secret: PARTNER.clientSecret });
    assert.equal(refreshed.status, 200);
    assert.notEqual(refreshed.body.access_token, granted.access_token);
    assert.equal(refreshed.body.refresh_token, granted.refresh_token);
    // The refresh token keeps its original expiry: ten days are gone from it.
    assert.ok(Math.abs(refreshed.body.refresh_token_expires_in - (31536000 - 10 * 24 * 3600)) <= 2, String(refreshed.body.refresh_token_expires_in));
    assert.equal((await api('/v2/userinfo', refreshed.body.access_token, {})).status, 200);
    // Not rotated: the same refresh token works again.
    const again = await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token, client_id: PARTNER.clientId, client_secret: PARTNER.clientSecret });
    assert.equal(again.status, 200);

    // Revoked by the member: invalid_grant, and the access token answers REVOKED_ACCESS_TOKEN.
    li.revokeUser(member.sub);
    const dead = await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token, client_id: PARTNER.clientId, client_secret: PARTNER.clientSecret });
    assert.equal(dead.status, 400);
    assert.equal(dead.body.error, 'invalid_grant');
    assert.deepEqual(await api('/v2/userinfo', again.body.access_token, {}), {
      status: 401,
      body: { status: 401, serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user' },
    });
  });
});

describe('LinkedIn emulator: API', () => {
  test('userinfo; expired and invalid tokens answer 401 with serviceErrorCode', async () => {
    const member = li.addUser({ givenName: 'Ada', familyName: 'Lovelace', email: 'ada@example.com' });
    li.signIn(member.sub);
    const { access_token: accessToken } = (await codeGrant(await codeFor())).body;
    const me = await api('/v2/userinfo', accessToken, {});
    assert.equal(me.status, 200);
    assert.deepEqual({ sub: me.body.sub, name: me.body.name, email: me.body.email, picture: typeof me.body.picture }, { sub: member.sub, name: 'Ada Lovelace', email: 'ada@example.com', picture: 'string' });
    assert.deepEqual(await api('/v2/userinfo', 'not-a-token', {}), { status: 401, body: { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' } });
    assert.equal((await api('/v2/userinfo', null, {})).body.message, 'Empty oauth2_access_token');
    li.clock.advance(61 * 24 * 3600 * 1000);
    assert.deepEqual(await api('/v2/userinfo', accessToken, {}), {
      status: 401,
      body: { status: 401, serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' },
    });
  });

  test('organizationAcls lists approved admin roles; /rest/ needs a served LinkedIn-Version', async () => {
    const member = li.addUser({});
    const acme = li.addOrganization({ localizedName: 'Acme', vanityName: 'acme', admins: [member.sub] });
    const other = li.addOrganization({ localizedName: 'Other' });
    li.grantRole(other.id, member.sub, 'ANALYST');
    li.signIn(member.sub);
    const { access_token: accessToken } = (await codeGrant(await codeFor())).body;
    const acls = await api('/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED', accessToken);
    assert.equal(acls.status, 200);
    assert.deepEqual(acls.body.elements, [{ roleAssignee: `urn:li:person:${member.sub}`, state: 'APPROVED', role: 'ADMINISTRATOR', organization: `urn:li:organization:${acme.id}` }]);
    assert.equal(acls.body.paging.start, 0);

    const org = await api(`/rest/organizations/${acme.id}`, accessToken);
    assert.deepEqual({ id: org.body.id, localizedName: org.body.localizedName, vanityName: org.body.vanityName }, { id: acme.id, localizedName: 'Acme', vanityName: 'acme' });
    assert.equal((await api('/rest/organizations/999', accessToken)).status, 404);

    const noVersion = await api('/rest/organizationAcls?q=roleAssignee', accessToken, { 'x-restli-protocol-version': '2.0.0' });
    assert.equal(noVersion.status, 400);
    assert.equal(noVersion.body.code, 'VERSION_MISSING');
    assert.deepEqual(await api('/rest/organizationAcls?q=roleAssignee', accessToken, { 'linkedin-version': '202301' }), {
      status: 426,
      body: { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202301 is not active' },
    });

    // Without an organization admin scope: 403 ACCESS_DENIED.
    const memberOnly = (await consent(APP, 'openid profile w_member_social')).searchParams.get('code')!;
    const limited = (await codeGrant(memberOnly)).body.access_token;
    const denied = await api('/rest/organizationAcls?q=roleAssignee', limited);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'ACCESS_DENIED');
  });
});
