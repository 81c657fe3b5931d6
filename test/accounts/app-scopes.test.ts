// An app registered with its own scopes asks for those instead of the network's defaults: a LinkedIn
// app without Community Management approval (LinkedIn refuses the organization scopes at consent)
// can still connect its member. Bad scope lists are a 400 naming the field; null goes back to defaults.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLinkedInEmulator, type LinkedInEmulator } from '../../emulators/linkedin/server.ts';
import { connectPending, connectTrip } from '../helpers/connect.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

let linkedin: LinkedInEmulator;
let server: TestServer;
let org: TestOrg;
const MEMBER_ONLY = ['openid', 'profile', 'email', 'w_member_social'];
const APP = { clientId: 'member-only-app', clientSecret: 'member-only-secret' };

before(async () => {
  linkedin = await startLinkedInEmulator();
  server = await startTestServer({ CRIER_LINKEDIN_BASE_URL: linkedin.url });
  // The app's products allow member scopes only, as for most LinkedIn apps.
  linkedin.addApp({ ...APP, redirectUris: [`${server.config.publicBaseUrl}/oauth/callback/linkedin`], scopes: MEMBER_ONLY });
  org = await server.createOrg();
});
after(async () => {
  await server.close();
  await linkedin.close();
});

const register = (body: Record<string, unknown>) =>
  server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'linkedin', client_key: APP.clientId, client_secret: APP.clientSecret, ...body } });

test('with the default scopes the member-only app is refused at consent; with its own scopes it connects the member', async () => {
  assert.equal((await register({})).status, 201);
  const refused = await connectTrip(server, org, 'linkedin', { redirect_uri: 'https://app.example.com/connected' });
  assert.equal(refused.redirectedTo!.searchParams.get('error'), 'unauthorized_scope_error');

  const saved = await register({ scopes: MEMBER_ONLY });
  assert.equal(saved.status, 200);
  assert.deepEqual(saved.body.data.scopes, MEMBER_ONLY);
  const member = linkedin.addUser({});
  linkedin.signIn(member.sub);
  const { session, trip } = await connectPending(server, org, 'linkedin');
  assert.deepEqual(trip.authUrl.searchParams.get('scope')!.split(' '), MEMBER_ONLY);
  const pending = await server.request('GET', `/v1/social-accounts/pending/${session}`);
  assert.deepEqual(pending.body.data.availablePages.map((p: any) => [p.type, p.id]), [['member', `urn:li:person:${member.sub}`]]);
});

test('scopes are checked: a non-array, an empty one, or a name with a separator is a 400 naming it; null restores the defaults', async () => {
  for (const [scopes, field] of [['openid profile', 'scopes'], [[], 'scopes'], [['openid', 'w_member social'], 'scopes[1]'], [['a,b'], 'scopes[0]'], [[7], 'scopes[0]']] as const) {
    const res = await register({ scopes });
    assert.equal(res.status, 400, JSON.stringify(scopes));
    assert.deepEqual(res.body.details.map((d: any) => d.field), [field]);
  }
  const reset = await register({ scopes: null });
  assert.equal(reset.body.data.scopes, null);
  const listed = await server.request('GET', '/v1/social-networks', { key: org.key });
  assert.equal(listed.body.data[0].scopes, null);
  const auth = await server.request('POST', '/v1/social-networks/linkedin/auth-url', { key: org.key, body: {} });
  assert.ok(new URL(auth.body.data.auth_url).searchParams.get('scope')!.split(' ').includes('w_organization_social'), 'the defaults again');
});
