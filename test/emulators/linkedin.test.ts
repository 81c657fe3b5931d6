// The LinkedIn emulator's contract over real HTTP: the consent page, the token endpoint (client
// credentials in the form, codes once, LinkedIn's invalid_request for a bad code, refresh tokens
// only for partner apps and without rotation), the 401 bodies with serviceErrorCode, and the
// LinkedIn-Version header every /rest/ call needs.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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

// ---- Publishing: posts, assets, comments, quotas, over real HTTP ----

const REST = { 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' };
const MEMBER_SCOPES = ['openid', 'profile', 'w_member_social', 'r_member_social'];
const ORG_SCOPES = ['openid', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from('0000000200000003', 'hex'), Buffer.alloc(40)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([2, 0, 3, 0]), Buffer.alloc(20)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(40)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Member { sub: string; urn: string; token: string }

function member(scopes = MEMBER_SCOPES): Member {
  const m = li.addUser({});
  return { sub: m.sub, urn: `urn:li:person:${m.sub}`, token: li.oauth.issue(m.sub, APP.clientId, scopes).accessToken };
}

async function call(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = REST) {
  const res = await fetch(`${path.startsWith('http') ? '' : li.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const postBody = (author: string, commentary: string, extra: Record<string, unknown> = {}) => ({
  author,
  commentary,
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
  isReshareDisabledByAuthor: false,
  ...extra,
});

async function initialize(kind: 'images' | 'documents', m: Member, owner = m.urn) {
  const res = await call('POST', `/rest/${kind}?action=initializeUpload`, m.token, { initializeUploadRequest: { owner } });
  assert.equal(res.status, 200, res.text);
  return res.body.value;
}

async function put(url: string, bytes: Buffer, token: string | null) {
  const res = await fetch(url, { method: 'PUT', headers: token ? { authorization: `Bearer ${token}` } : {}, body: new Uint8Array(bytes) });
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
}

async function uploadImage(m: Member, bytes = PNG, owner = m.urn): Promise<string> {
  const value = await initialize('images', m, owner);
  assert.equal((await put(value.uploadUrl, bytes, m.token)).status, 201);
  return value.image;
}

/** A fake MP4 of `size` bytes (an ftyp box, then filler) whose every 4 MiB part differs. */
function mp4(size: number): Buffer {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from('00000018667479706d703432', 'hex').copy(bytes);
  for (let at = 4 * 1024 * 1024; at < size; at += 4 * 1024 * 1024) bytes[at] = at / (4 * 1024 * 1024);
  return bytes;
}

async function initializeVideo(m: Member, size: number, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/rest/videos?action=initializeUpload', m.token, { initializeUploadRequest: { owner: m.urn, fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false, ...extra } });
  assert.equal(res.status, 200, res.text);
  return res.body.value;
}

async function uploadVideo(m: Member, bytes: Buffer): Promise<string> {
  const value = await initializeVideo(m, bytes.length);
  const etags: string[] = [];
  for (const part of value.uploadInstructions) etags.push((await put(part.uploadUrl, bytes.subarray(part.firstByte, part.lastByte + 1), null)).etag!);
  const fin = await call('POST', '/rest/videos?action=finalizeUpload', m.token, { finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken, uploadedPartIds: etags } });
  assert.equal(fin.status, 200, fin.text);
  return value.video;
}

describe('LinkedIn emulator: posts', () => {
  test('create answers 201 with an empty body and the share URN in x-restli-id; get, find (newest first) and delete', async () => {
    const m = member();
    const first = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'First post'));
    assert.equal(first.status, 201);
    assert.equal(first.text, '');
    const urn = first.headers.get('x-restli-id')!;
    assert.match(urn, /^urn:li:share:\d{19}$/);
    li.clock.advance(1000);
    const second = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Second post'))).headers.get('x-restli-id')!;

    const one = await call('GET', `/rest/posts/${encodeURIComponent(urn)}`, m.token);
    assert.equal(one.status, 200);
    assert.deepEqual(
      { id: one.body.id, author: one.body.author, commentary: one.body.commentary, lifecycleState: one.body.lifecycleState, visibility: one.body.visibility },
      { id: urn, author: m.urn, commentary: 'First post', lifecycleState: 'PUBLISHED', visibility: 'PUBLIC' },
    );
    assert.equal(one.body.publishedAt, one.body.createdAt);

    const found = await call('GET', `/rest/posts?author=${encodeURIComponent(m.urn)}&q=author&count=1&sortBy=CREATED`, m.token);
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.elements.map((p: { id: string }) => p.id), [second]);
    assert.equal(found.body.paging.links[0].rel, 'next');
    const page2 = await call('GET', `/rest/posts?author=${encodeURIComponent(m.urn)}&q=author&count=1&start=1`, m.token);
    assert.deepEqual(page2.body.elements.map((p: { id: string }) => p.id), [urn]);

    const deleted = await call('DELETE', `/rest/posts/${encodeURIComponent(urn)}`, m.token);
    assert.equal(deleted.status, 204);
    assert.equal((await call('GET', `/rest/posts/${encodeURIComponent(urn)}`, m.token)).status, 404);
    assert.equal((await call('DELETE', `/rest/posts/${encodeURIComponent(urn)}`, m.token)).status, 404);
    const seen = li.posts().filter((p) => p.author === m.urn);
    assert.deepEqual(seen.map((p) => [p.urn, p.deleted]), [[urn, true], [second, false]]);
  });

  test('schema problems answer Rest.li 422 lines; no protocol header is Rest.li 1.0, an unknown one is refused', async () => {
    const m = member();
    const missing = await call('POST', '/rest/posts', m.token, { author: m.urn, commentary: 'x', visibility: 'EVERYONE', extra: 1 });
    assert.deepEqual(missing.body, {
      status: 422,
      message: [
        'ERROR :: /extra :: unrecognized field found but not allowed\n',
        'ERROR :: /visibility :: "EVERYONE" is not an enum symbol\n',
        'ERROR :: /distribution :: field is required but not found and has no default value\n',
        'ERROR :: /lifecycleState :: field is required but not found and has no default value\n',
      ].join(''),
    });
    const badAuthor = await call('POST', '/rest/posts', m.token, postBody('urn:li:member:1', 'x'));
    assert.equal(badAuthor.status, 422);
    const draft = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'x', { lifecycleState: 'DRAFT' }));
    assert.equal(draft.status, 400);
    // No X-Restli-Protocol-Version: LinkedIn reads the call as Rest.li 1.0, whose JSON body is the same.
    const noProtocol = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Read as Rest.li 1.0'), { 'linkedin-version': '202610' });
    assert.equal(noProtocol.status, 201, noProtocol.text);
    assert.match(noProtocol.headers.get('x-restli-id')!, /^urn:li:share:\d+$/);
    const unknownProtocol = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'x'), { 'linkedin-version': '202610', 'x-restli-protocol-version': '3.0.0' });
    assert.deepEqual(unknownProtocol.body, { status: 400, message: 'Rest.li protocol version 3.0.0 used by the client is not supported!' });
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'x'), { 'x-restli-protocol-version': '2.0.0' })).body.code, 'VERSION_MISSING');
  });

  test('commentary: at most 3,000 characters', async () => {
    const m = member();
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'a'.repeat(3000)))).status, 201);
    const long = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'b'.repeat(3001)));
    assert.equal(long.status, 422);
    assert.equal(long.body.errorDetails.inputErrors[0].input.inputPath.fieldPath, 'commentary');
    assert.match(long.body.message, /3001 characters, the maximum is 3000/);
  });

  test('author: the token\'s member, or an organization where they hold a posting role, with the matching scope', async () => {
    const m = member(ORG_SCOPES);
    const other = member();
    const denied = await call('POST', '/rest/posts', m.token, postBody(other.urn, 'As someone else'));
    assert.deepEqual(denied.body, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: partnerApiPostsExternal.CREATE.20261001' });

    const acme = li.addOrganization({ localizedName: 'Acme' });
    const orgUrn = `urn:li:organization:${acme.id}`;
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(orgUrn, 'Org post, no role'))).status, 403);
    li.grantRole(acme.id, m.sub, 'ANALYST');
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(orgUrn, 'Org post, analyst'))).status, 403);
    li.grantRole(acme.id, m.sub, 'CONTENT_ADMINISTRATOR');
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(orgUrn, 'Org post, content admin'))).status, 201);

    // Scopes: w_member_social alone does not post as the organization; without it, not as oneself either.
    const memberOnly = li.oauth.issue(m.sub, APP.clientId, ['w_member_social']).accessToken;
    assert.equal((await call('POST', '/rest/posts', memberOnly, postBody(orgUrn, 'Org post, member scope'))).status, 403);
    const orgOnly = li.oauth.issue(m.sub, APP.clientId, ['w_organization_social']).accessToken;
    assert.equal((await call('POST', '/rest/posts', orgOnly, postBody(m.urn, 'Member post, org scope'))).status, 403);
  });

  test('reading needs r_member_social (restricted) for a member\'s posts', async () => {
    const m = member(['w_member_social']);
    const urn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Write-only app'))).headers.get('x-restli-id')!;
    const get = await call('GET', `/rest/posts/${encodeURIComponent(urn)}`, m.token);
    assert.equal(get.status, 403);
    assert.equal(get.body.code, 'ACCESS_DENIED');
    assert.equal((await call('GET', `/rest/posts?q=author&author=${encodeURIComponent(m.urn)}`, m.token)).status, 403);
    const reader = li.oauth.issue(m.sub, APP.clientId, ['r_member_social']).accessToken;
    assert.equal((await call('GET', `/rest/posts/${encodeURIComponent(urn)}`, reader)).status, 200);
    // Another member's post is not readable with one's own r_member_social.
    assert.equal((await call('GET', `/rest/posts/${encodeURIComponent(urn)}`, member().token)).status, 403);
  });

  test('the same commentary again within the window is 422 DUPLICATE_POST naming the first post', async () => {
    const m = member();
    const urn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Say it once'))).headers.get('x-restli-id')!;
    const again = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Say it once'));
    assert.deepEqual(again.body, {
      errorDetailType: 'com.linkedin.common.error.BadRequest',
      message: `com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of ${urn}`,
      errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
      status: 422,
    });
    // Another author may say the same; after the window (24 h by default) the author may too.
    const other = member();
    assert.equal((await call('POST', '/rest/posts', other.token, postBody(other.urn, 'Say it once'))).status, 201);
    li.clock.advance(24 * 3600 * 1000 + 1);
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Say it once'))).status, 201);
  });

  test('little text: mentions are parsed, escapes kept, an unescaped reserved character cuts the commentary', async () => {
    const m = member();
    const text = 'Thanks @[Ada Lovelace](urn:li:person:ada1) and @[Acme](urn:li:organization:42) \\(really\\) #launch see https://ex.com/a_b (details)';
    const urn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, text))).headers.get('x-restli-id')!;
    const post = li.posts().find((p) => p.urn === urn)!;
    assert.deepEqual(post.mentions, [
      { name: 'Ada Lovelace', urn: 'urn:li:person:ada1', start: 7, length: 12 },
      { name: 'Acme', urn: 'urn:li:organization:42', start: 24, length: 4 },
    ]);
    const kept = 'Thanks @[Ada Lovelace](urn:li:person:ada1) and @[Acme](urn:li:organization:42) \\(really\\) #launch see https://ex.com/a_b ';
    assert.equal(post.commentary, kept);
    assert.equal(post.commentarySent, text);
    assert.equal(post.truncated, true);
    assert.equal((await call('GET', `/rest/posts/${encodeURIComponent(urn)}`, m.token)).body.commentary, kept);
  });
});

describe('LinkedIn emulator: images and documents', () => {
  test('initializeUpload → PUT with the bearer token → AVAILABLE; JPEG/PNG/GIF accepted, other bytes PROCESSING_FAILED', async () => {
    const m = member();
    const value = await initialize('images', m);
    assert.match(value.image, /^urn:li:image:/);
    assert.ok(value.uploadUrl.startsWith(li.url));
    assert.ok(value.uploadUrlExpiresAt > li.clock.now());
    const status = async (urn: string) => (await call('GET', `/rest/images/${encodeURIComponent(urn)}`, m.token)).body.status;
    assert.equal(await status(value.image), 'WAITING_UPLOAD');

    const anonymous = await put(value.uploadUrl, PNG, null);
    assert.equal(anonymous.status, 401);
    assert.equal((await put(value.uploadUrl, PNG, member().token)).status, 403);
    assert.equal((await put(value.uploadUrl, PNG, m.token)).status, 201);
    const got = await call('GET', `/rest/images/${encodeURIComponent(value.image)}`, m.token);
    assert.deepEqual({ id: got.body.id, owner: got.body.owner, status: got.body.status, download: typeof got.body.downloadUrl }, { id: value.image, owner: m.urn, status: 'AVAILABLE', download: 'string' });
    const view = li.images().find((i) => i.urn === value.image)!;
    assert.deepEqual({ size: view.size, sha256: view.sha256, mime: view.mime, puts: view.parts.map((p) => p.puts) }, { size: PNG.length, sha256: sha256(PNG), mime: 'image/png', puts: [1] });

    assert.equal(await status(await uploadImage(m, GIF)), 'AVAILABLE');
    assert.equal(await status(await uploadImage(m, JPEG)), 'AVAILABLE');
    assert.equal(await status(await uploadImage(m, Buffer.from('not an image at all'))), 'PROCESSING_FAILED');
    assert.equal((await call('GET', `/rest/images/${encodeURIComponent('urn:li:image:nope')}`, m.token)).status, 404);
  });

  test('processing time is settable; the owner must be the member or an organization they post for', async () => {
    const m = member(ORG_SCOPES);
    li.setImageProcessing({ ms: 5000 });
    try {
      const urn = await uploadImage(m);
      assert.equal((await call('GET', `/rest/images/${encodeURIComponent(urn)}`, m.token)).body.status, 'PROCESSING');
      li.clock.advance(5000);
      assert.equal((await call('GET', `/rest/images/${encodeURIComponent(urn)}`, m.token)).body.status, 'AVAILABLE');
    } finally {
      li.setImageProcessing({ ms: 0 });
    }
    const foreign = await call('POST', '/rest/images?action=initializeUpload', m.token, { initializeUploadRequest: { owner: member().urn } });
    assert.equal(foreign.status, 403);
    const noOwner = await call('POST', '/rest/images?action=initializeUpload', m.token, { initializeUploadRequest: {} });
    assert.deepEqual(noOwner.body, { status: 422, message: 'ERROR :: /initializeUploadRequest/owner :: field is required but not found and has no default value\n' });
    const acme = li.addOrganization({ admins: [m.sub] });
    assert.equal((await initialize('images', m, `urn:li:organization:${acme.id}`)).image.startsWith('urn:li:image:'), true);
  });

  test('image posts: single media, multiImage of 2–20, article thumbnail; assets must exist, be the author\'s and be AVAILABLE', async () => {
    const m = member();
    const [a, b] = [await uploadImage(m), await uploadImage(m, JPEG)];
    const single = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'One image', { content: { media: { id: a, altText: 'alt' } } }));
    assert.equal(single.status, 201, single.text);
    const multi = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Two images', { content: { multiImage: { images: [{ id: a }, { id: b, altText: 'b' }] } } }));
    assert.equal(multi.status, 201, multi.text);
    assert.deepEqual(li.posts().find((p) => p.urn === multi.headers.get('x-restli-id'))!.content, { multiImage: { images: [{ id: a }, { id: b, altText: 'b' }] } });
    const lonely = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'One in multi', { content: { multiImage: { images: [{ id: a }] } } }));
    assert.equal(lonely.status, 400);
    assert.equal(lonely.body.errorDetails.inputErrors[0].code, 'INVALID_IMAGE_COUNT');
    const article = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Read this', { content: { article: { source: 'https://crier.example/a', title: 'A', thumbnail: a } } }));
    assert.equal(article.status, 201, article.text);

    const unknown = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Ghost image', { content: { media: { id: 'urn:li:image:ghost' } } }));
    assert.equal(unknown.body.errorDetails.inputErrors[0].code, 'MEDIA_ASSET_NOT_FOUND');
    const someoneElses = await uploadImage(member());
    const foreign = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Borrowed image', { content: { media: { id: someoneElses } } }));
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.errorDetails.inputErrors[0].code, 'MEDIA_ASSET_OWNER_MISMATCH');
    const broken = await uploadImage(m, Buffer.from('garbage'));
    const failed = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Broken image', { content: { media: { id: broken } } }));
    assert.equal(failed.status, 400);
    assert.deepEqual(failed.body.errorDetails.inputErrors[0], { description: 'Media asset is in status PROCESSING_FAILED', input: { inputPath: { fieldPath: 'content/media/id' } }, code: 'MEDIA_ASSET_NOT_AVAILABLE' });
  });

  test('documents: PDF by its magic bytes, anything else PROCESSING_FAILED; posted as content.media', async () => {
    const m = member();
    const value = await initialize('documents', m);
    assert.match(value.document, /^urn:li:document:/);
    assert.equal((await put(value.uploadUrl, PDF, m.token)).status, 201);
    const got = await call('GET', `/rest/documents/${encodeURIComponent(value.document)}`, m.token);
    assert.equal(got.body.status, 'AVAILABLE');
    assert.deepEqual(li.documents().find((d) => d.urn === value.document)!.sha256, sha256(PDF));
    const post = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Slides', { content: { media: { id: value.document, title: 'Deck.pdf' } } }));
    assert.equal(post.status, 201, post.text);

    const text = await initialize('documents', m);
    await put(text.uploadUrl, Buffer.from('plain text, not a document'), m.token);
    assert.equal((await call('GET', `/rest/documents/${encodeURIComponent(text.document)}`, m.token)).body.status, 'PROCESSING_FAILED');
  });
});

describe('LinkedIn emulator: videos', () => {
  test('initializeUpload splits the file into 4 MiB parts; parts answer ETags; finalize with them in order → AVAILABLE', async () => {
    const m = member();
    const bytes = mp4(2 * 4194304 + 1000);
    const value = await initializeVideo(m, bytes.length);
    assert.match(value.video, /^urn:li:video:/);
    assert.deepEqual(value.uploadInstructions.map((p: { firstByte: number; lastByte: number }) => [p.firstByte, p.lastByte]), [[0, 4194303], [4194304, 8388607], [8388608, 8389607]]);
    assert.ok(value.uploadToken.length > 0);
    const status = async () => (await call('GET', `/rest/videos/${encodeURIComponent(value.video)}`, m.token)).body;
    assert.equal((await status()).status, 'WAITING_UPLOAD');

    const [p0, p1, p2] = value.uploadInstructions;
    const short = await put(p0.uploadUrl, bytes.subarray(0, 100), null);
    assert.equal(short.status, 400);
    // Out of order and one part twice: the whole-file hash still comes out right.
    const r2 = await put(p2.uploadUrl, bytes.subarray(p2.firstByte, p2.lastByte + 1), null);
    const r0 = await put(p0.uploadUrl, bytes.subarray(p0.firstByte, p0.lastByte + 1), null);
    assert.equal(r0.status, 200);
    assert.ok(r0.etag);
    const fin = (ids: unknown[], token = value.uploadToken) => call('POST', '/rest/videos?action=finalizeUpload', m.token, { finalizeUploadRequest: { video: value.video, uploadToken: token, uploadedPartIds: ids } });
    const incomplete = await fin([r0.etag, r2.etag]);
    assert.equal(incomplete.status, 400);
    assert.match(incomplete.body.message, /2 of 3 parts/);
    const r1 = await put(p1.uploadUrl, bytes.subarray(p1.firstByte, p1.lastByte + 1), null);
    await put(p1.uploadUrl, bytes.subarray(p1.firstByte, p1.lastByte + 1), null);
    assert.equal((await fin([r0.etag, r2.etag, r1.etag])).status, 400);
    assert.equal((await fin([r0.etag, r1.etag])).status, 400);
    assert.equal((await fin([r0.etag, r1.etag, r2.etag], 'wrong-token')).status, 400);
    const ok = await fin([r0.etag, r1.etag, r2.etag]);
    assert.equal(ok.status, 200);
    assert.equal(ok.text, '');
    assert.equal((await status()).status, 'AVAILABLE');

    const view = li.videos().find((v) => v.urn === value.video)!;
    assert.equal(view.sha256, sha256(bytes));
    assert.equal(view.size, bytes.length);
    assert.deepEqual(view.parts.map((p) => [p.index, p.size, p.puts, p.sha256 === sha256(bytes.subarray(p.firstByte, p.lastByte + 1))]), [[0, 4194304, 1, true], [1, 4194304, 2, true], [2, 1000, 1, true]]);
    const post = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'A video', { content: { media: { id: value.video, title: 'Clip' } } }));
    assert.equal(post.status, 201, post.text);
  });

  test('a single-part upload has an empty uploadToken; thumbnail and captions URLs on request', async () => {
    const m = member();
    const value = await initializeVideo(m, 5000, { uploadThumbnail: true, uploadCaptions: true });
    assert.equal(value.uploadToken, '');
    assert.equal(value.uploadInstructions.length, 1);
    assert.equal((await put(value.thumbnailUploadUrl, JPEG, null)).status, 201);
    assert.equal((await put(value.captionsUploadUrl, Buffer.from('WEBVTT\n'), null)).status, 201);
    const etag = (await put(value.uploadInstructions[0].uploadUrl, mp4(5000), null)).etag;
    assert.equal((await call('POST', '/rest/videos?action=finalizeUpload', m.token, { finalizeUploadRequest: { video: value.video, uploadToken: '', uploadedPartIds: [etag] } })).status, 200);
    const view = li.videos().find((v) => v.urn === value.video)!;
    assert.deepEqual([view.thumbnail?.sha256, view.captions?.size], [sha256(JPEG), 7]);
  });

  test('processing controls: a set duration, stickNextVideo/releaseVideo, failNextVideo; posts refuse a video not AVAILABLE', async () => {
    const m = member();
    const statusOf = async (urn: string) => (await call('GET', `/rest/videos/${encodeURIComponent(urn)}`, m.token)).body;
    li.setVideoProcessing({ ms: 10_000 });
    const timed = await uploadVideo(m, mp4(3000));
    li.setVideoProcessing({ ms: 0 });
    assert.equal((await statusOf(timed)).status, 'PROCESSING');
    const early = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Too early', { content: { media: { id: timed } } }));
    assert.equal(early.status, 400);
    assert.equal(early.body.errorDetails.inputErrors[0].description, 'Media asset is in status PROCESSING');
    li.clock.advance(10_000);
    assert.equal((await statusOf(timed)).status, 'AVAILABLE');

    // A duration set for one video before its finalize applies to it alone.
    const value = await initializeVideo(m, 3000);
    li.setVideoProcessing({ ms: 2000, urn: value.video });
    const etag = (await put(value.uploadInstructions[0].uploadUrl, mp4(3000), null)).etag;
    await call('POST', '/rest/videos?action=finalizeUpload', m.token, { finalizeUploadRequest: { video: value.video, uploadToken: '', uploadedPartIds: [etag] } });
    assert.equal((await statusOf(value.video)).status, 'PROCESSING');
    li.clock.advance(2000);
    assert.equal((await statusOf(value.video)).status, 'AVAILABLE');

    li.stickNextVideo();
    const stuck = await uploadVideo(m, mp4(3000));
    li.clock.advance(24 * 3600 * 1000);
    assert.equal((await statusOf(stuck)).status, 'PROCESSING');
    li.releaseVideo(stuck);
    assert.equal((await statusOf(stuck)).status, 'AVAILABLE');

    li.failNextVideo('Video duration is shorter than 3 seconds');
    const failed = await uploadVideo(m, mp4(3000));
    assert.deepEqual(
      { status: (await statusOf(failed)).status, reason: (await statusOf(failed)).processingFailureReason },
      { status: 'PROCESSING_FAILED', reason: 'Video duration is shorter than 3 seconds' },
    );
    assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Failed video', { content: { media: { id: failed } } }))).status, 400);
    // Bytes that are not a video fail processing on their own.
    const notVideo = await uploadVideo(m, Buffer.alloc(3000, 1));
    assert.equal((await statusOf(notVideo)).status, 'PROCESSING_FAILED');
  });

  test('a 200 MB upload is hashed part by part: the emulator keeps sizes and hashes, not bytes', async () => {
    const m = member();
    const size = 200 * 1024 * 1024;
    const partSize = 4 * 1024 * 1024;
    const value = await initializeVideo(m, size);
    assert.equal(value.uploadInstructions.length, 50);
    const whole = createHash('sha256');
    const part = Buffer.alloc(partSize, 3);
    Buffer.from('00000018667479706d703432', 'hex').copy(part);
    const etags: string[] = [];
    for (const [i, instruction] of value.uploadInstructions.entries()) {
      part[100] = i;
      whole.update(part);
      etags.push((await put(instruction.uploadUrl, part, null)).etag!);
    }
    const rssBefore = process.memoryUsage().rss;
    const fin = await call('POST', '/rest/videos?action=finalizeUpload', m.token, { finalizeUploadRequest: { video: value.video, uploadToken: value.uploadToken, uploadedPartIds: etags } });
    assert.equal(fin.status, 200);
    const view = li.videos().find((v) => v.urn === value.video)!;
    assert.deepEqual([view.size, view.sha256, view.parts.length], [size, whole.digest('hex'), 50]);
    // Finalize assembles nothing: memory does not jump by the file's size.
    assert.ok(process.memoryUsage().rss - rssBefore < 50 * 1024 * 1024);
  });

  test('initializeUpload refuses a file over 500 MB and a missing size', async () => {
    const m = member();
    const big = await call('POST', '/rest/videos?action=initializeUpload', m.token, { initializeUploadRequest: { owner: m.urn, fileSizeBytes: 500 * 1024 * 1024 + 1 } });
    assert.equal(big.status, 400);
    const none = await call('POST', '/rest/videos?action=initializeUpload', m.token, { initializeUploadRequest: { owner: m.urn } });
    assert.deepEqual(none.body, { status: 422, message: 'ERROR :: /initializeUploadRequest/fileSizeBytes :: field is required but not found and has no default value\n' });
  });
});

describe('LinkedIn emulator: comments', () => {
  test('create answers 201 with the comment URN in x-restli-id; list; replies need a parent on the same post', async () => {
    const m = member();
    const postUrn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Comment on me'))).headers.get('x-restli-id')!;
    const path = `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`;
    const created = await call('POST', path, m.token, { actor: m.urn, object: postUrn, message: { text: 'First comment' } });
    assert.equal(created.status, 201, created.text);
    const commentUrn = created.headers.get('x-restli-id')!;
    assert.match(commentUrn, /^urn:li:comment:\(urn:li:activity:\d{19},\d{19}\)$/);
    assert.deepEqual({ urn: created.body.commentUrn, actor: created.body.actor, object: created.body.object, text: created.body.message.text }, { urn: commentUrn, actor: m.urn, object: postUrn, text: 'First comment' });

    const reply = await call('POST', path, m.token, { actor: m.urn, object: postUrn, message: { text: 'A reply' }, parentComment: commentUrn });
    assert.equal(reply.status, 201);
    const orphan = await call('POST', path, m.token, { actor: m.urn, object: postUrn, message: { text: 'Orphan' }, parentComment: 'urn:li:comment:(urn:li:activity:1,2)' });
    assert.equal(orphan.status, 400);
    assert.equal(orphan.body.errorDetails.inputErrors[0].code, 'INVALID_PARENT_COMMENT');

    const listed = await call('GET', path, m.token);
    assert.equal(listed.status, 200);
    const texts = (body: { elements: { message: { text: string }; parentComment?: string }[] }) => body.elements.map((c) => [c.message.text, c.parentComment]);
    assert.deepEqual(texts(listed.body), [['First comment', undefined]], 'the post lists its top-level comments');
    assert.equal(typeof listed.body.elements[0].created.time, 'number');
    assert.deepEqual(listed.body.elements[0].commentsSummary, { totalFirstLevelComments: 1, aggregatedTotalComments: 1, selectedComments: [] });
    const encodedComment = encodeURIComponent(commentUrn).replace(/\(/g, '%28').replace(/\)/g, '%29');
    const answers = await call('GET', `/rest/socialActions/${encodedComment}/comments`, m.token);
    assert.deepEqual(texts(answers.body), [['A reply', commentUrn]], 'the comment lists its answers');
    assert.equal((await call('GET', `/rest/socialActions/${encodeURIComponent(commentUrn)}/comments`, m.token)).status, 400, 'parentheses left unencoded');
    assert.deepEqual(li.comments(postUrn).map((c) => c.text), ['First comment', 'A reply']);
  });

  test('refusals: unknown post 404, another actor 403, object not the path\'s post 400, missing text 422', async () => {
    const m = member();
    const postUrn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Guarded'))).headers.get('x-restli-id')!;
    const path = `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`;
    assert.equal((await call('POST', `/rest/socialActions/${encodeURIComponent('urn:li:share:1')}/comments`, m.token, { actor: m.urn, object: 'urn:li:share:1', message: { text: 'x' } })).status, 404);
    assert.equal((await call('POST', path, m.token, { actor: member().urn, object: postUrn, message: { text: 'x' } })).status, 403);
    assert.equal((await call('POST', path, m.token, { actor: m.urn, object: 'urn:li:share:2', message: { text: 'x' } })).status, 400);
    const noText = await call('POST', path, m.token, { actor: m.urn, object: postUrn, message: {} });
    assert.deepEqual(noText.body, { status: 422, message: 'ERROR :: /message/text :: field is required but not found and has no default value\n' });
    const writeOnly = li.oauth.issue(m.sub, APP.clientId, ['w_member_social']).accessToken;
    assert.equal((await call('GET', path, writeOnly)).status, 403);
  });

  test('as an organization: a RECRUITING_POSTER may comment but not post; reading its comments needs ADMINISTRATOR or DSC poster', async () => {
    const admin = member(ORG_SCOPES);
    const recruiter = member(ORG_SCOPES);
    const acme = li.addOrganization({ admins: [admin.sub] });
    li.grantRole(acme.id, recruiter.sub, 'RECRUITING_POSTER');
    const org = `urn:li:organization:${acme.id}`;
    assert.equal((await call('POST', '/rest/posts', recruiter.token, postBody(org, 'Recruiter post'))).status, 403);
    const postUrn = (await call('POST', '/rest/posts', admin.token, postBody(org, 'Company news'))).headers.get('x-restli-id')!;
    const path = `/rest/socialActions/${encodeURIComponent(postUrn)}/comments`;
    assert.equal((await call('POST', path, recruiter.token, { actor: org, object: postUrn, message: { text: 'We are hiring' } })).status, 201);
    assert.equal((await call('GET', path, recruiter.token)).status, 403);
    const listed = await call('GET', path, admin.token);
    assert.deepEqual(listed.body.elements.map((c: { actor: string }) => c.actor), [org]);
  });
});

describe('LinkedIn emulator: daily quotas, call log, faults', () => {
  test('a spent member or app quota answers 429 without Retry-After or rate-limit headers until UTC midnight', async () => {
    li.setDailyQuota('POST /rest/posts', { member: 2 });
    try {
      const m = member();
      assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Quota 1'))).status, 201);
      assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Quota 2'))).status, 201);
      const over = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Quota 3'));
      assert.deepEqual(over.body, { status: 429, serviceErrorCode: 101, message: 'Resource level throttle limit for calls to this resource is reached.' });
      const headerNames = [...over.headers.keys()];
      assert.ok(!headerNames.some((h) => h === 'retry-after' || h.includes('ratelimit') || h.includes('rate-limit')), headerNames.join());
      // Another endpoint and another member are not affected.
      assert.equal((await call('GET', `/rest/posts?q=author&author=${encodeURIComponent(m.urn)}`, m.token)).status, 200);
      const other = member();
      assert.equal((await call('POST', '/rest/posts', other.token, postBody(other.urn, 'Quota other'))).status, 201);
      // The next UTC day the member's quota is fresh.
      const now = li.clock.now();
      li.clock.advance(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1) - now);
      assert.equal((await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Quota 3'))).status, 201);

      // The app quota counts every member together: today the app has posted once (Quota 3 above).
      li.setDailyQuota('POST /rest/posts', { member: 100, app: 2 });
      const a = member();
      const b = member();
      assert.equal((await call('POST', '/rest/posts', a.token, postBody(a.urn, 'App quota a'))).status, 201);
      assert.equal((await call('POST', '/rest/posts', b.token, postBody(b.urn, 'App quota b'))).status, 429);
    } finally {
      li.setDailyQuota('POST /rest/posts', { member: 100_000, app: 1_000_000 });
    }
  });

  test('calls() logs every request in order with decoded paths; failNext answers the next matching request', async () => {
    const m = member();
    const image = await uploadImage(m);
    li.failNext({ status: 500, path: '/rest/posts', method: 'POST' });
    const failed = await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Logged', { content: { media: { id: image } } }));
    assert.deepEqual(failed.body, { status: 500, message: 'Internal Server Error' });
    const urn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Logged', { content: { media: { id: image } } }))).headers.get('x-restli-id')!;
    const log = li.calls().slice(-4).map((c) => `${c.method} ${c.path} ${c.status}`);
    assert.deepEqual(log, [
      'POST /rest/images 200',
      `PUT /dms-uploads/image/${image}/0 201`,
      'POST /rest/posts 500',
      'POST /rest/posts 201',
    ]);
    assert.ok(urn);
    // Nothing was uploaded twice.
    assert.equal(li.calls().filter((c) => c.method === 'PUT' && c.path.includes(image)).length, 1);
  });
});

describe('LinkedIn emulator: social actions and statistics', () => {
  const enc = (urn: string) => encodeURIComponent(urn).replace(/\(/g, '%28').replace(/\)/g, '%29');

  test('a comment by id, the post\'s summary, one level of nesting, comments by others through the handle', async () => {
    const m = member();
    const postUrn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Summarized'))).headers.get('x-restli-id')!;
    const other = member();
    const top = li.addComment({ on: postUrn, actor: other.urn, text: 'Hello', likes: 2 });
    const answer = li.addComment({ on: top.urn, actor: m.urn, text: 'Hi back' });
    assert.equal(answer.parentComment, top.urn);
    li.setPostStatistics(postUrn, { likes: 9 });
    const one = await call('GET', `/rest/socialActions/${enc(postUrn)}/comments/${answer.id}`, m.token);
    assert.deepEqual([one.status, one.body.commentUrn, one.body.parentComment], [200, answer.urn, top.urn]);
    assert.equal((await call('GET', `/rest/socialActions/${enc(postUrn)}/comments/123`, m.token)).status, 404);
    const summary = await call('GET', `/rest/socialActions/${enc(postUrn)}`, m.token);
    assert.deepEqual([summary.body.likesSummary.totalLikes, summary.body.commentsSummary], [9, { totalFirstLevelComments: 1, aggregatedTotalComments: 2, selectedComments: [] }]);
    const listed = await call('GET', `/rest/socialActions/${enc(postUrn)}/comments`, m.token);
    assert.deepEqual(listed.body.elements[0].likesSummary, { totalLikes: 2, aggregatedTotalLikes: 2, likedByCurrentUser: false, selectedLikes: [] });
    const deeper = await call('POST', `/rest/socialActions/${enc(answer.urn)}/comments`, m.token, { actor: m.urn, object: postUrn, message: { text: 'too deep' }, parentComment: answer.urn });
    assert.equal(deeper.status, 400);
    assert.match(deeper.body.message, /comments nest one level/);
    const mismatch = await call('POST', `/rest/socialActions/${enc(top.urn)}/comments`, m.token, { actor: m.urn, object: postUrn, message: { text: 'x' } });
    assert.equal(mismatch.status, 400, 'a comment target needs parentComment');
  });

  test('share statistics: per post, per day over a time range, lifetime; only for the page\'s statistics roles with rw_organization_admin', async () => {
    const admin = member(ORG_SCOPES);
    const org = li.addOrganization({ admins: [admin.sub], followers: 77 });
    const orgUrn = `urn:li:organization:${org.id}`;
    const day0 = li.clock.now();
    const first = (await call('POST', '/rest/posts', admin.token, postBody(orgUrn, 'Stats one'))).headers.get('x-restli-id')!;
    li.setPostStatistics(first, { impressions: 200, clicks: 10, likes: 20, shares: 5, uniqueImpressions: 150 });
    li.clock.advance(24 * 3600_000);
    const second = (await call('POST', '/rest/posts', admin.token, postBody(orgUrn, 'Stats two'))).headers.get('x-restli-id')!;
    li.setPostStatistics(second, { impressions: 100, likes: 5 });
    const base = `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${enc(orgUrn)}`;
    const perPost = await call('GET', `${base}&shares=List(${enc(first)},${enc(second)})`, admin.token);
    assert.deepEqual(perPost.body.elements.map((e: any) => [e.share, e.totalShareStatistics.impressionCount]), [[first, 200], [second, 100]]);
    assert.deepEqual(perPost.body.elements[0].totalShareStatistics, { impressionCount: 200, uniqueImpressionsCount: 150, clickCount: 10, likeCount: 20, commentCount: 0, shareCount: 5, engagement: 35 / 200 });
    const ranged = await call('GET', `${base}&timeIntervals=(timeRange:(start:${day0 - 1000},end:${day0 - 1000 + 3 * 24 * 3600_000}),timeGranularityType:DAY)`, admin.token);
    assert.deepEqual(ranged.body.elements.map((e: any) => e.totalShareStatistics.impressionCount), [200, 100, 0]);
    const lifetime = await call('GET', base, admin.token);
    assert.equal(lifetime.body.elements[0].totalShareStatistics.likeCount, 25);
    const outsider = member(ORG_SCOPES);
    assert.equal((await call('GET', base, outsider.token)).status, 403, 'no role on the page');
    assert.equal((await call('GET', base, li.oauth.issue(admin.sub, APP.clientId, ['r_organization_social']).accessToken)).status, 403, 'no rw_organization_admin');
    const size = await call('GET', `/rest/networkSizes/${enc(orgUrn)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`, admin.token);
    assert.deepEqual(size.body, { firstDegreeSize: 77 });
    assert.equal((await call('GET', `/rest/networkSizes/${enc(orgUrn)}?edgeType=CONNECTION`, admin.token)).status, 400);
  });

  test('member post analytics: one metric a call, the member\'s own post, r_member_postAnalytics', async () => {
    const m = member([...MEMBER_SCOPES, 'r_member_postAnalytics']);
    const postUrn = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Analyzed'))).headers.get('x-restli-id')!;
    li.setPostStatistics(postUrn, { impressions: 42, saves: 3 });
    const metric = (token: string, queryType: string) => call('GET', `/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${enc(postUrn)})&queryType=${queryType}&aggregation=TOTAL`, token);
    assert.deepEqual((await metric(m.token, 'IMPRESSION')).body.elements, [{ count: 42, metricType: 'IMPRESSION', targetEntity: { share: postUrn } }]);
    assert.equal((await metric(m.token, 'POST_SAVE')).body.elements[0].count, 3);
    assert.equal((await metric(m.token, 'NOPE')).status, 400);
    assert.equal((await metric(member().token, 'IMPRESSION')).status, 403, 'without the permission');
    assert.equal((await metric(member([...MEMBER_SCOPES, 'r_member_postAnalytics']).token, 'IMPRESSION')).status, 403, 'another member\'s post');
  });
});

describe('LinkedIn emulator: statistics as the pages document them', () => {
  const enc = (urn: string) => encodeURIComponent(urn).replace(/\(/g, '%28').replace(/\)/g, '%29');
  const months = (ms: number, n: number) => { const d = new Date(ms); d.setUTCMonth(d.getUTCMonth() + n); return d.getTime(); };

  /** An organization whose admin posted once (200 impressions, 20 likes) just now. */
  async function pageWithPost() {
    const admin = member(ORG_SCOPES);
    const org = li.addOrganization({ admins: [admin.sub] });
    const orgUrn = `urn:li:organization:${org.id}`;
    const post = (await call('POST', '/rest/posts', admin.token, postBody(orgUrn, `Stats of ${org.id}`))).headers.get('x-restli-id')!;
    li.setPostStatistics(post, { impressions: 200, likes: 20 });
    const base = `/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${enc(orgUrn)}`;
    return { admin, org, orgUrn, post, base };
  }

  test('timeGranularityType:MONTH answers one element per month of the range', async () => {
    const { admin, base } = await pageWithPost();
    const start = months(li.clock.now(), -2) - 1000;
    const end = months(start, 3);
    const monthly = await call('GET', `${base}&timeIntervals=(timeRange:(start:${start},end:${end}),timeGranularityType:MONTH)`, admin.token);
    assert.equal(monthly.status, 200, monthly.text);
    assert.deepEqual(monthly.body.elements.map((e: any) => [e.timeRange, e.totalShareStatistics.impressionCount]), [
      [{ start, end: months(start, 1) }, 0],
      [{ start: months(start, 1), end: months(start, 2) }, 0],
      [{ start: months(start, 2), end }, 200],
    ]);
  });

  test('a range starting before the rolling 12-month window, or spanning 14 months, is refused', async () => {
    const { admin, base } = await pageWithPost();
    const now = li.clock.now();
    const old = months(now, -13);
    const tooOld = await call('GET', `${base}&timeIntervals=(timeRange:(start:${old},end:${now}),timeGranularityType:MONTH)`, admin.token);
    assert.deepEqual(tooOld.body, {
      status: 400, code: 'ILLEGAL_ARGUMENT',
      message: `Invalid timeIntervals parameter [{timeGranularityType=MONTH, timeRange={start=${old}, end=${now}}}]. Start time must be within the past 12 months.`,
    });
    const start = months(now, -11);
    const long = await call('GET', `${base}&timeIntervals=(timeRange:(start:${start},end:${months(start, 14)}),timeGranularityType:DAY)`, admin.token);
    assert.equal(long.status, 400);
    assert.match(long.body.message, /Start time and end time must be less than 14 months apart\.$/);
    const inside = await call('GET', `${base}&timeIntervals=(timeRange:(start:${months(now, -12) + 60_000},end:${now + 1000}),timeGranularityType:MONTH)`, admin.token);
    assert.equal(inside.status, 200, inside.text);
  });

  test('share statistics are for the page\'s ADMINISTRATORs only (rw_organization_admin), not ANALYST or CONTENT_ADMINISTRATOR', async () => {
    const { org, base } = await pageWithPost();
    for (const role of ['ANALYST', 'CONTENT_ADMINISTRATOR'] as const) {
      const m = member(ORG_SCOPES);
      li.grantRole(org.id, m.sub, role);
      const denied = await call('GET', base, m.token);
      assert.deepEqual(denied.body, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: organizationalEntityShareStatistics.FINDER-organizationalEntity' }, role);
    }
  });

  test('member post analytics: the me finder totals every post of the member; aggregation=DAILY gives one data point a day', async () => {
    const m = member([...MEMBER_SCOPES, 'r_member_postAnalytics']);
    const first = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Mine one'))).headers.get('x-restli-id')!;
    const second = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Mine two'))).headers.get('x-restli-id')!;
    li.setPostStatistics(first, { impressions: 30 });
    li.setPostStatistics(second, { impressions: 12 });
    const total = await call('GET', '/rest/memberCreatorPostAnalytics?q=me&queryType=IMPRESSION&aggregation=TOTAL', m.token);
    assert.equal(total.status, 200, total.text);
    assert.deepEqual(total.body.elements, [{ count: 42, metricType: 'IMPRESSION' }]);

    const today = new Date(li.clock.now());
    const [d, mo, y] = [today.getUTCDate(), today.getUTCMonth() + 1, today.getUTCFullYear()];
    const tomorrow = new Date(Date.UTC(y, mo - 1, d + 1));
    const yesterday = new Date(Date.UTC(y, mo - 1, d - 1));
    const date = (t: Date) => ({ day: t.getUTCDate(), month: t.getUTCMonth() + 1, year: t.getUTCFullYear() });
    const range = `(start:(day:${yesterday.getUTCDate()},month:${yesterday.getUTCMonth() + 1},year:${yesterday.getUTCFullYear()}),end:(day:${tomorrow.getUTCDate()},month:${tomorrow.getUTCMonth() + 1},year:${tomorrow.getUTCFullYear()}))`;
    const daily = await call('GET', `/rest/memberCreatorPostAnalytics?q=me&queryType=IMPRESSION&aggregation=DAILY&dateRange=${range}`, m.token);
    assert.equal(daily.status, 200, daily.text);
    assert.deepEqual(daily.body.elements, [
      { count: 0, metricType: 'IMPRESSION', dateRange: { start: date(yesterday), end: { day: d, month: mo, year: y } } },
      { count: 42, metricType: 'IMPRESSION', dateRange: { start: { day: d, month: mo, year: y }, end: date(tomorrow) } },
    ]);
    const onePost = await call('GET', `/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${enc(first)})&queryType=IMPRESSION&aggregation=DAILY&dateRange=${range}`, m.token);
    assert.deepEqual(onePost.body.elements.map((e: any) => [e.count, e.targetEntity]), [[0, { share: first }], [30, { share: first }]]);
    assert.equal((await call('GET', '/rest/memberCreatorPostAnalytics?q=me&queryType=IMPRESSION&aggregation=DAILY', m.token)).status, 400, 'DAILY needs a dateRange');
  });

  test('POST_SAVE and POST_SEND exist from LinkedIn-Version 202603; older versions refuse them', async () => {
    const m = member([...MEMBER_SCOPES, 'r_member_postAnalytics']);
    const post = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Saved'))).headers.get('x-restli-id')!;
    li.setPostStatistics(post, { saves: 3, sends: 2 });
    const metric = (queryType: string, version: string) =>
      call('GET', `/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${enc(post)})&queryType=${queryType}&aggregation=TOTAL`, m.token, undefined, { 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0' });
    assert.deepEqual((await metric('POST_SAVE', '202511')).body, { status: 400, code: 'ILLEGAL_ARGUMENT', message: 'Invalid queryType: POST_SAVE' });
    assert.equal((await metric('POST_SEND', '202602')).status, 400);
    assert.equal((await metric('IMPRESSION', '202511')).status, 200);
    assert.equal((await metric('POST_SAVE', '202603')).body.elements[0].count, 3);
    assert.equal((await metric('POST_SEND', '202610')).body.elements[0].count, 2);
  });

  test('without X-Restli-Protocol-Version the call is Rest.li 1.0: dotted records and repeated lists are read, 2.0 syntax is not', async () => {
    const { admin, orgUrn, post, base } = await pageWithPost();
    const v1 = { 'linkedin-version': '202610' };
    const now = li.clock.now();
    const ranged = await call('GET', `${base}&timeIntervals.timeGranularityType=DAY&timeIntervals.timeRange.start=${now - 1000}&timeIntervals.timeRange.end=${now + 1000}`, admin.token, undefined, v1);
    assert.equal(ranged.status, 200, ranged.text);
    assert.deepEqual(ranged.body.elements.map((e: any) => e.totalShareStatistics.impressionCount), [200]);
    const other = (await call('POST', '/rest/posts', admin.token, postBody(orgUrn, 'Second for 1.0'))).headers.get('x-restli-id')!;
    const listed = await call('GET', `${base}&shares=${enc(post)}&shares=${enc(other)}`, admin.token, undefined, v1);
    assert.deepEqual(listed.body.elements.map((e: any) => e.share), [post, other]);
    // The same calls in 2.0 syntax are not 1.0: a List(…) is no URN, a (…) record no dotted field.
    assert.equal((await call('GET', `${base}&shares=List(${enc(post)})`, admin.token, undefined, v1)).status, 400);
    assert.equal((await call('GET', `${base}&timeIntervals=(timeRange:(start:${now - 1000},end:${now + 1000}),timeGranularityType:DAY)`, admin.token, undefined, v1)).status, 400);
    // And 1.0 spellings are not 2.0: a repeated list or dotted names are parameters 2.0 does not take.
    assert.equal((await call('GET', `${base}&shares=${enc(post)}&shares=${enc(other)}`, admin.token)).status, 400);
    assert.equal((await call('GET', `${base}&timeIntervals.timeGranularityType=DAY&timeIntervals.timeRange.start=${now - 1000}&timeIntervals.timeRange.end=${now + 1000}`, admin.token)).status, 400);

    const m = member([...MEMBER_SCOPES, 'r_member_postAnalytics']);
    const mine = (await call('POST', '/rest/posts', m.token, postBody(m.urn, 'Entity in 1.0'))).headers.get('x-restli-id')!;
    li.setPostStatistics(mine, { impressions: 5 });
    const union = await call('GET', `/rest/memberCreatorPostAnalytics?q=entity&entity.share=${enc(mine)}&queryType=IMPRESSION`, m.token, undefined, v1);
    assert.deepEqual(union.body.elements, [{ count: 5, metricType: 'IMPRESSION', targetEntity: { share: mine } }]);
    assert.equal((await call('GET', `/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${enc(mine)})&queryType=IMPRESSION`, m.token, undefined, v1)).status, 400);

    // A path key is a plain string in 1.0: a comment URN with raw parentheses is read as sent.
    const comment = li.addComment({ on: mine, actor: m.urn, text: 'raw key' });
    const raw = `/rest/socialActions/${comment.urn.replace(/:/g, '%3A')}/comments`;
    assert.equal((await call('GET', raw, m.token)).status, 400, '2.0: raw ( ) , are key syntax');
    assert.equal((await call('GET', raw, m.token, undefined, v1)).status, 200);
  });
});
