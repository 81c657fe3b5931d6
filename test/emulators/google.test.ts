// The Google emulator over real HTTP: the consent page's checks and when it grants a refresh token,
// the token endpoint's error bodies (wrong secret, reused code, wrong redirect_uri, PKCE, dead refresh
// token), no refresh-token rotation, revocation, the API answers a connect reads (YouTube
// channels.list, Business Profile accounts and locations) with Google's 401/403/400 envelopes, and
// the YouTube paths engagement calls (playlistItems, comment threads and replies, videos.delete, quota).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startGoogleEmulator, type GoogleEmulator } from '../../emulators/index.ts';

const APP = { clientId: '1234-app.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret' };
const REDIRECT = 'https://crier.example/oauth/callback/youtube';
const UPLOAD = 'https://www.googleapis.com/auth/youtube.upload';
const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';
const BUSINESS = 'https://www.googleapis.com/auth/business.manage';
const VERIFIER = 'v'.repeat(50);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const INVALID_CREDENTIALS_BODY = {
  error: {
    code: 401,
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
    status: 'UNAUTHENTICATED',
  },
};

let google: GoogleEmulator;

before(async () => {
  google = await startGoogleEmulator();
  google.addApp({ ...APP, redirectUris: [REDIRECT] });
});
after(() => google.close());

/** The consent page; returns the redirect's parameters (or the page's status and text). */
async function consent(params: Record<string, string | undefined> = {}) {
  const query = { client_id: APP.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: `${UPLOAD} ${FORCE_SSL}`, access_type: 'offline', prompt: 'consent', state: 'st-1', code_challenge: CHALLENGE, code_challenge_method: 'S256', ...params };
  const url = new URL(`${google.url}/o/oauth2/v2/auth`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  return { status: res.status, text: await res.text(), back: location ? new URL(location) : undefined };
}

async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${google.url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: (await res.json()) as any };
}

const codeGrant = (code: string, extra: Record<string, string> = {}) =>
  token({ grant_type: 'authorization_code', code, client_id: APP.clientId, client_secret: APP.clientSecret, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra });
const refreshGrant = (refreshToken: string, secret = APP.clientSecret) =>
  token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: APP.clientId, client_secret: secret });

async function api(path: string, accessToken?: string) {
  const res = await fetch(google.url + path, { headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A new user signed in, through a full offline consent: their tokens. */
async function login(input: Parameters<GoogleEmulator['addUser']>[0] = {}, scope = `${UPLOAD} ${FORCE_SSL} ${BUSINESS}`) {
  const user = google.addUser(input);
  google.signIn(user.id);
  const { back } = await consent({ scope });
  const granted = await codeGrant(back!.searchParams.get('code')!);
  assert.equal(granted.status, 200, JSON.stringify(granted.body));
  return { user, tokens: granted.body };
}

describe('the Google consent page', () => {
  test('redirects back with code, state and the granted scopes', async () => {
    google.signIn(google.addUser({}).id);
    const { status, back } = await consent();
    assert.equal(status, 302);
    assert.equal(`${back!.origin}${back!.pathname}`, REDIRECT);
    assert.equal(back!.searchParams.get('state'), 'st-1');
    assert.ok(back!.searchParams.get('code'));
    assert.deepEqual(back!.searchParams.get('scope')!.split(' ').sort(), [FORCE_SSL, UPLOAD].sort());
  });

  test('an unknown client or a redirect_uri the client does not list is an error page, not a redirect', async () => {
    const unknown = await consent({ client_id: 'nope.apps.googleusercontent.com' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.back, undefined);
    assert.match(unknown.text, /Error 401: invalid_client/);
    const mismatch = await consent({ redirect_uri: 'https://evil.example/cb' });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.back, undefined);
    assert.match(mismatch.text, /Error 400: redirect_uri_mismatch/);
    const badScope = await consent({ scope: 'https://www.googleapis.com/auth/not-a-scope' });
    assert.equal(badScope.status, 400);
    assert.match(badScope.text, /invalid_scope/);
  });

  test('a refresh token only with access_type=offline on a consent screen', async () => {
    const user = google.addUser({});
    google.signIn(user.id);
    // First consent, offline, no prompt: the consent screen is shown anyway, so a refresh token.
    const first = await codeGrant((await consent({ prompt: undefined })).back!.searchParams.get('code')!);
    assert.equal(typeof first.body.refresh_token, 'string');
    // Same scopes again without prompt=consent: no consent screen, no refresh token.
    const again = await codeGrant((await consent({ prompt: undefined })).back!.searchParams.get('code')!);
    assert.equal(again.status, 200);
    assert.equal(again.body.refresh_token, undefined);
    // prompt=consent shows it again: a refresh token.
    const forced = await codeGrant((await consent({ prompt: 'consent' })).back!.searchParams.get('code')!);
    assert.equal(typeof forced.body.refresh_token, 'string');
    // Online access: never one, even on a consent screen.
    const online = await codeGrant((await consent({ access_type: 'online' })).back!.searchParams.get('code')!);
    assert.equal(online.status, 200);
    assert.deepEqual(Object.keys(online.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(online.body.token_type, 'Bearer');
    assert.equal(online.body.expires_in, 3599);
  });

  test('include_granted_scopes=true adds the scopes granted before; unticked scopes are left out', async () => {
    const user = google.addUser({});
    google.signIn(user.id);
    await codeGrant((await consent({ scope: BUSINESS })).back!.searchParams.get('code')!);
    const merged = await codeGrant((await consent({ scope: UPLOAD, include_granted_scopes: 'true' })).back!.searchParams.get('code')!);
    assert.deepEqual(merged.body.scope.split(' ').sort(), [BUSINESS, UPLOAD].sort());
    const only = await codeGrant((await consent({ scope: UPLOAD })).back!.searchParams.get('code')!);
    assert.equal(only.body.scope, UPLOAD);
    google.declineScopesAtNextConsent([UPLOAD]);
    const partial = await codeGrant((await consent({ scope: `${UPLOAD} ${FORCE_SSL}` })).back!.searchParams.get('code')!);
    assert.equal(partial.body.scope, FORCE_SSL);
  });
});

test('the consent page and the token endpoint refuse a parameter sent twice (RFC 6749 §3.1) instead of reading the first', async () => {
  const url = new URL(`${google.url}/o/oauth2/v2/auth`);
  for (const [k, v] of [['client_id', APP.clientId], ['redirect_uri', REDIRECT], ['response_type', 'code'], ['scope', UPLOAD], ['scope', FORCE_SSL]]) url.searchParams.append(k, v!);
  const page = await fetch(url, { redirect: 'manual' });
  assert.equal(page.status, 400);
  assert.equal(page.headers.get('location'), null, 'an error page, not a redirect');
  assert.match(await page.text(), /invalid_request/);

  const user = google.addUser();
  google.signIn(user.id);
  const { back } = await consent();
  const form = new URLSearchParams({ grant_type: 'authorization_code', code: back!.searchParams.get('code')!, client_id: APP.clientId, client_secret: APP.clientSecret, redirect_uri: REDIRECT, code_verifier: VERIFIER });
  form.append('code_verifier', 'w'.repeat(50));
  const res = await fetch(`${google.url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  assert.deepEqual([res.status, ((await res.json()) as any).error], [400, 'invalid_request']);
});

describe('the Google token endpoint', () => {
  test('wrong secret, unknown client, reused code, wrong redirect_uri and wrong or missing verifier', async () => {
    google.signIn(google.addUser({}).id);
    const code = () => consent().then((c) => c.back!.searchParams.get('code')!);

    const wrongSecret = await codeGrant(await code(), { client_secret: 'wrong' });
    assert.deepEqual(wrongSecret, { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } });
    const unknown = await codeGrant(await code(), { client_id: 'other.apps.googleusercontent.com' });
    assert.deepEqual(unknown, { status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } });

    const once = await code();
    assert.equal((await codeGrant(once)).status, 200);
    assert.deepEqual(await codeGrant(once), { status: 400, body: { error: 'invalid_grant', error_description: 'Bad Request' } });

    assert.deepEqual(await codeGrant(await code(), { redirect_uri: 'https://crier.example/other' }), { status: 400, body: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } });
    assert.deepEqual(await codeGrant(await code(), { code_verifier: 'w'.repeat(50) }), { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid code verifier.' } });
    const missing = await token({ grant_type: 'authorization_code', code: await code(), client_id: APP.clientId, client_secret: APP.clientSecret, redirect_uri: REDIRECT });
    assert.deepEqual(missing.body, { error: 'invalid_grant', error_description: 'Missing code verifier.' });

    // A code older than its lifetime is refused.
    const late = await code();
    google.clock.advance(11 * 60_000);
    assert.equal((await codeGrant(late)).body.error, 'invalid_grant');
    assert.equal((await token({ grant_type: 'password', client_id: APP.clientId, client_secret: APP.clientSecret })).body.error, 'unsupported_grant_type');
  });

  test('the client may authenticate with HTTP Basic instead of the body', async () => {
    google.signIn(google.addUser({}).id);
    const code = (await consent()).back!.searchParams.get('code')!;
    const basic = `Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`;
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basic });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  test('a refresh returns a new access token and no refresh token; the old refresh token keeps working', async () => {
    const { user, tokens } = await login();
    const first = await refreshGrant(tokens.refresh_token);
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.notEqual(first.body.access_token, tokens.access_token);
    const second = await refreshGrant(tokens.refresh_token);
    assert.equal(second.status, 200, 'Google does not rotate refresh tokens');
    assert.equal((await api('/youtube/v3/channels?part=snippet&mine=true', second.body.access_token)).body.items[0].id, user.channel!.id);
    assert.deepEqual(await refreshGrant(tokens.refresh_token, 'wrong'), { status: 401, body: { error: 'invalid_client', error_description: 'Unauthorized' } });
  });

  test('revoking kills the whole grant: refresh is invalid_grant, the access token a 401; a second revoke is an error', async () => {
    const { tokens } = await login();
    const revoke = (t: string) => fetch(`${google.url}/revoke?token=${encodeURIComponent(t)}`, { method: 'POST' }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    assert.equal((await revoke(tokens.refresh_token)).status, 200);
    assert.deepEqual(await refreshGrant(tokens.refresh_token), { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } });
    const channel = await api('/youtube/v3/channels?part=snippet&mine=true', tokens.access_token);
    assert.equal(channel.status, 401);
    assert.deepEqual(channel.body, INVALID_CREDENTIALS_BODY);
    assert.deepEqual(await revoke(tokens.access_token), { status: 400, body: { error: 'invalid_token', error_description: 'Token expired or revoked' } });
  });

  test('revokeUser kills every token of the user; an expired access token is a 401', async () => {
    const { user, tokens } = await login();
    google.revokeUser(user.id);
    assert.equal((await refreshGrant(tokens.refresh_token)).body.error, 'invalid_grant');
    const other = await login();
    google.clock.advance(3600_000);
    const expired = await api('/v1/accounts', other.tokens.access_token);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.status, 'UNAUTHENTICATED');
    assert.equal(expired.body.error.details[0].reason, 'ACCESS_TOKEN_EXPIRED');
    assert.match(expired.headers.get('www-authenticate')!, /invalid_token/);
    // The refresh token outlives the access token.
    assert.equal((await refreshGrant(other.tokens.refresh_token)).status, 200);
  });
});

describe('the Google APIs a connect reads', () => {
  test('YouTube channels.list: the token’s channel; [] without one; 401 and 403 in the v3 envelope', async () => {
    const withChannel = await login({ name: 'Chan Owner', channel: { title: 'Chan Owner TV', customUrl: '@chanowner' } });
    const res = await api('/youtube/v3/channels?part=snippet&mine=true', withChannel.tokens.access_token);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'youtube#channelListResponse');
    assert.equal(res.body.items.length, 1);
    assert.equal(res.body.items[0].id, withChannel.user.channel!.id);
    assert.match(res.body.items[0].id, /^UC[A-Za-z0-9_-]{22}$/);
    assert.equal(res.body.items[0].snippet.title, 'Chan Owner TV');
    assert.equal(res.body.items[0].snippet.customUrl, '@chanowner');
    assert.ok(res.body.items[0].snippet.thumbnails.default.url);

    const without = await login({ channel: null });
    assert.deepEqual((await api('/youtube/v3/channels?part=snippet&mine=true', without.tokens.access_token)).body.items, []);

    const anonymous = await api('/youtube/v3/channels?part=snippet&mine=true');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.errors[0].reason, 'required');
    const bogus = await api('/youtube/v3/channels?part=snippet&mine=true', 'ya29.bogus');
    assert.deepEqual([bogus.status, bogus.body], [401, INVALID_CREDENTIALS_BODY]);

    const businessOnly = await login({}, BUSINESS);
    const forbidden = await api('/youtube/v3/channels?part=snippet&mine=true', businessOnly.tokens.access_token);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body.error.errors, [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }]);
    assert.equal(forbidden.body.error.status, 'PERMISSION_DENIED');

    const noPart = await api('/youtube/v3/channels?mine=true', withChannel.tokens.access_token);
    assert.equal(noPart.status, 400);
    assert.equal(noPart.body.error.errors[0].location, 'part');
  });

  test('Business Profile: accounts and locations, paged; {} when empty; readMask is mandatory', async () => {
    const owner = await login({
      businessAccounts: [
        { accountName: 'Cafe Group', locations: [{ title: 'Cafe North' }, { title: 'Cafe South' }, { title: 'Cafe East' }] },
        { accountName: 'Empty Group', locations: [] },
      ],
    });
    const accounts = await api('/v1/accounts', owner.tokens.access_token);
    assert.equal(accounts.status, 200);
    assert.deepEqual(accounts.body.accounts.map((a: any) => [a.accountName, a.type]), [['Cafe Group', 'LOCATION_GROUP'], ['Empty Group', 'LOCATION_GROUP']]);
    assert.match(accounts.body.accounts[0].name, /^accounts\/\d+$/);
    const [cafe, empty] = accounts.body.accounts.map((a: any) => a.name as string);

    const first = await api(`/v1/${cafe}/locations?readMask=name,title&pageSize=2`, owner.tokens.access_token);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.locations.map((l: any) => l.title), ['Cafe North', 'Cafe South']);
    assert.deepEqual(Object.keys(first.body.locations[0]).sort(), ['name', 'title'], 'only the fields of the readMask');
    assert.match(first.body.locations[0].name, /^locations\/\d+$/);
    const second = await api(`/v1/${cafe}/locations?readMask=name,title&pageSize=2&pageToken=${first.body.nextPageToken}`, owner.tokens.access_token);
    assert.deepEqual(second.body.locations.map((l: any) => l.title), ['Cafe East']);
    assert.equal(second.body.nextPageToken, undefined);
    assert.deepEqual((await api(`/v1/${empty}/locations?readMask=name`, owner.tokens.access_token)).body, {});

    const noMask = await api(`/v1/${cafe}/locations?pageSize=100`, owner.tokens.access_token);
    assert.equal(noMask.status, 400);
    assert.deepEqual(noMask.body, {
      error: {
        code: 400,
        message: 'Request contains an invalid argument.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'read_mask', description: 'Field is required' }] }],
      },
    });
    const badMask = await api(`/v1/${cafe}/locations?readMask=user.display_name`, owner.tokens.access_token);
    assert.equal(badMask.body.error.details[0].fieldViolations[0].description, 'Invalid field mask provided');

    const stranger = await login({ businessAccounts: [] });
    assert.deepEqual((await api('/v1/accounts', stranger.tokens.access_token)).body, {});
    assert.equal((await api(`/v1/${cafe}/locations?readMask=name`, stranger.tokens.access_token)).status, 403);

    const youtubeOnly = await login({}, `${UPLOAD} ${FORCE_SSL}`);
    const forbidden = await api('/v1/accounts', youtubeOnly.tokens.access_token);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.details[0].reason, 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
  });

  test('accounts.list pages by 20', async () => {
    const many = await login({ businessAccounts: Array.from({ length: 23 }, (_, i) => ({ accountName: `Group ${i}`, locations: [] })) });
    const first = await api('/v1/accounts', many.tokens.access_token);
    assert.equal(first.body.accounts.length, 20);
    const rest = await api(`/v1/accounts?pageToken=${first.body.nextPageToken}`, many.tokens.access_token);
    assert.deepEqual(rest.body.accounts.map((a: any) => a.accountName), ['Group 20', 'Group 21', 'Group 22']);
  });

  test('accounts.list answers the PERSONAL account first, whatever order the accounts came in', async () => {
    const owner = await login({ name: 'Ada', businessAccounts: [{ accountName: 'Ada Group', type: 'LOCATION_GROUP' }, { type: 'PERSONAL' }, { accountName: 'Ada Org', type: 'ORGANIZATION' }] });
    const listed = await api('/v1/accounts', owner.tokens.access_token);
    assert.deepEqual(listed.body.accounts.map((a: any) => [a.accountName, a.type]), [['Ada', 'PERSONAL'], ['Ada Group', 'LOCATION_GROUP'], ['Ada Org', 'ORGANIZATION']]);
    const firstPage = await api('/v1/accounts?pageSize=1', owner.tokens.access_token);
    assert.deepEqual(firstPage.body.accounts.map((a: any) => a.type), ['PERSONAL']);
  });

  test('repeated query parameters are bound as Google binds them; one the method does not have is refused', async () => {
    const owner = await login({ businessAccounts: [{ accountName: 'Bakery', locations: [{ title: 'Bakery One', websiteUri: 'https://bakery.example' }, { title: 'Bakery Two' }] }] });
    const [bakery] = (await api('/v1/accounts', owner.tokens.access_token)).body.accounts.map((a: any) => a.name as string);
    // readMask is a FieldMask: every value's paths count, not only the first value's.
    const masked = await api(`/v1/${bakery}/locations?readMask=name&readMask=title,websiteUri`, owner.tokens.access_token);
    assert.equal(masked.status, 200);
    assert.deepEqual(Object.keys(masked.body.locations[0]).sort(), ['name', 'title', 'websiteUri']);
    // A scalar given twice keeps its last value (protobuf's "last one wins").
    const paged = await api(`/v1/${bakery}/locations?readMask=title&pageSize=100&pageSize=1`, owner.tokens.access_token);
    assert.deepEqual(paged.body.locations.map((l: any) => l.title), ['Bakery One']);
    assert.ok(paged.body.nextPageToken);
    const unknown = await api(`/v1/${bakery}/locations?readMask=title&pageSzie=1`, owner.tokens.access_token);
    const message = 'Invalid JSON payload received. Unknown name "pageSzie": Cannot bind query parameter. Field \'pageSzie\' could not be found in request message.';
    assert.deepEqual(unknown.body, {
      error: { code: 400, message, status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ description: message }] }] },
    });
    assert.equal((await api('/v1/accounts?pageSize=1&prettyPrint=false', owner.tokens.access_token)).status, 200, 'system parameters are taken');
  });

  test('localPosts.list binds its query the same way, and the Business call log keeps every value sent', async () => {
    const owner = await login({ businessAccounts: [{ accountName: 'Poster', locations: [{ title: 'Poster Shop' }] }] });
    const account = owner.user.businessAccounts[0]!;
    const path = `/v4/${account.name}/${account.locations[0]!.name}/localPosts`;
    const unknown = await api(`${path}?pageSize=5&orderBy=createTime`, owner.tokens.access_token);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /Unknown name "orderBy": Cannot bind query parameter/);
    assert.equal((await api(`${path}?pageSize=500&pageSize=5`, owner.tokens.access_token)).status, 200, 'the last pageSize (5) is the one read, not 500');
    assert.deepEqual(google.business.calls().at(-1)!.query, { pageSize: '500,5' }, 'both values, not only the first');
  });
});

describe('the YouTube paths engagement reads and writes', () => {
  const send = async (method: string, path: string, accessToken: string, json?: unknown) => {
    const res = await fetch(google.url + path, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** A channel with a manage-scoped token, on a project (client) of its own so its units can be read alone. */
  const owner = async (name: string) => {
    const clientId = `${name}.apps.googleusercontent.com`;
    google.addApp({ clientId, clientSecret: 's', redirectUris: [REDIRECT] });
    const user = google.addUser({ name, channel: { title: name, customUrl: `@${name}` } });
    return { user, clientId, token: google.oauth.issue(user.id, clientId, [FORCE_SSL]).accessToken };
  };

  test('channels.list: the uploads playlist and statistics as strings, 1 unit; a hidden subscriber count is left out', async () => {
    const { user, clientId, token } = await owner('statsowner');
    const video = google.youtube.addVideo(user.channel!.id, { title: 'A' });
    google.youtube.setVideoStats(video, { viewCount: 77 });
    google.youtube.setSubscribers(user.channel!.id, 1200);
    const res = await api('/youtube/v3/channels?part=contentDetails,statistics&mine=true', token);
    assert.deepEqual(res.body.items[0].contentDetails, { relatedPlaylists: { likes: '', uploads: `UU${user.channel!.id.slice(2)}` } });
    assert.deepEqual(res.body.items[0].statistics, { viewCount: '77', subscriberCount: '1200', hiddenSubscriberCount: false, videoCount: '1' });
    assert.equal(google.youtube.quotaUsed(clientId), 1);
    google.youtube.setSubscribers(user.channel!.id, 1200, true);
    assert.deepEqual((await api('/youtube/v3/channels?part=statistics&mine=true', token)).body.items[0].statistics, { viewCount: '77', hiddenSubscriberCount: true, videoCount: '1' });
  });

  test('playlistItems pages the uploads newest first with next and prev tokens; a foreign token is 400 invalidPageToken', async () => {
    const { user, token } = await owner('pager');
    const ids = [0, 1, 2].map((i) => google.youtube.addVideo(user.channel!.id, { title: `V${i}`, publishedAt: `2026-03-0${i + 1}T00:00:00Z` }));
    const playlist = `UU${user.channel!.id.slice(2)}`;
    const first = await api(`/youtube/v3/playlistItems?part=contentDetails&playlistId=${playlist}&maxResults=2`, token);
    assert.deepEqual(first.body.items.map((i: any) => i.contentDetails.videoId), [ids[2], ids[1]]);
    assert.equal(first.body.pageInfo.totalResults, 3);
    const second = await api(`/youtube/v3/playlistItems?part=contentDetails&playlistId=${playlist}&maxResults=2&pageToken=${first.body.nextPageToken}`, token);
    assert.deepEqual(second.body.items.map((i: any) => i.contentDetails.videoId), [ids[0]]);
    assert.equal(second.body.nextPageToken, undefined);
    assert.ok(second.body.prevPageToken);
    const bad = await api(`/youtube/v3/playlistItems?part=snippet&playlistId=${playlist}&pageToken=xyz`, token);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.errors.map((e: any) => e.reason), ['invalidPageToken']);
    assert.equal(bad.body.error.status, 'INVALID_ARGUMENT');
    const unknown = await api('/youtube/v3/playlistItems?part=snippet&playlistId=UUnothing', token);
    assert.deepEqual([unknown.status, unknown.body.error.errors[0].reason], [404, 'playlistNotFound']);
  });

  test('playlistItems with maxResults=0 (the method\'s minimum) answers no items and no next page', async () => {
    const { user, token } = await owner('zeropage');
    for (const i of [0, 1]) google.youtube.addVideo(user.channel!.id, { title: `Z${i}` });
    const none = await api(`/youtube/v3/playlistItems?part=snippet&playlistId=UU${user.channel!.id.slice(2)}&maxResults=0`, token);
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.items, []);
    assert.deepEqual(none.body.pageInfo, { totalResults: 2, resultsPerPage: 0 });
    assert.equal(none.body.nextPageToken, undefined);
  });

  test('threads embed up to five replies; comments.list has them all; comments.insert is one tier deep', async () => {
    const { user, token } = await owner('threads');
    const video = google.youtube.addVideo(user.channel!.id, { title: 'T' });
    const top = google.youtube.addComment(video, { text: 'top', authorDisplayName: '@fan' });
    for (let i = 0; i < 6; i++) google.youtube.addComment(video, { text: `r${i}`, parentId: top });
    const threads = await api(`/youtube/v3/commentThreads?part=snippet,replies&videoId=${video}`, token);
    const thread = threads.body.items[0];
    assert.equal(thread.id, top, 'a thread is known by its top-level comment\'s id');
    assert.equal(thread.snippet.totalReplyCount, 6);
    assert.equal(thread.replies.comments.length, 5);
    assert.equal(thread.snippet.topLevelComment.snippet.textOriginal, undefined, 'textOriginal is the author\'s only');
    assert.equal(thread.snippet.topLevelComment.snippet.textDisplay, 'top');
    const all = await api(`/youtube/v3/comments?part=snippet&parentId=${top}`, token);
    assert.deepEqual(all.body.items.map((c: any) => c.snippet.textDisplay), ['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
    assert.ok(all.body.items.every((c: any) => c.snippet.parentId === top && c.id.startsWith(`${top}.`)));

    const reply = await send('POST', '/youtube/v3/comments?part=snippet', token, { snippet: { parentId: top, textOriginal: 'ours' } });
    assert.equal(reply.status, 200);
    assert.deepEqual([reply.body.snippet.parentId, reply.body.snippet.textOriginal, reply.body.snippet.authorChannelId.value], [top, 'ours', user.channel!.id]);
    const refusals = [
      [{ snippet: { textOriginal: 'x' } }, 400, 'parentIdMissing'],
      [{ snippet: { parentId: top, textOriginal: ' ' } }, 400, 'commentTextRequired'],
      [{ snippet: { parentId: 'UgNope', textOriginal: 'x' } }, 404, 'commentNotFound'],
      [{ snippet: { parentId: reply.body.id, textOriginal: 'x' } }, 400, 'operationNotSupported'],
    ] as const;
    for (const [body, status, reason] of refusals) {
      const res = await send('POST', '/youtube/v3/comments?part=snippet', token, body);
      assert.deepEqual([res.status, res.body.error.errors[0].reason], [status, reason], reason);
    }
  });

  test('videos.delete: 204 and gone, 404 after, 403 for another channel\'s; 50 units; quotaExceeded once the day is spent', async () => {
    const { user, clientId, token } = await owner('deleter');
    const other = await owner('bystander');
    const mine = google.youtube.addVideo(user.channel!.id, { title: 'Mine' });
    const theirs = google.youtube.addVideo(other.user.channel!.id, { title: 'Theirs' });
    assert.equal((await send('DELETE', `/youtube/v3/videos?id=${mine}`, token)).status, 204);
    assert.equal(google.youtube.quotaUsed(clientId), 50);
    assert.deepEqual((await api(`/youtube/v3/videos?part=statistics&id=${mine}`, token)).body.items, []);
    const again = await send('DELETE', `/youtube/v3/videos?id=${mine}`, token);
    assert.deepEqual([again.status, again.body.error.errors[0].reason], [404, 'videoNotFound']);
    const foreign = await send('DELETE', `/youtube/v3/videos?id=${theirs}`, token);
    assert.deepEqual([foreign.status, foreign.body.error.errors[0].reason], [403, 'forbidden']);
    google.youtube.setQuota({ dailyUnits: google.youtube.quotaUsed(clientId) + 49 });
    try {
      const spent = await send('DELETE', `/youtube/v3/videos?id=${theirs}`, token);
      assert.deepEqual([spent.status, spent.body.error.errors[0].reason, spent.body.error.errors[0].domain], [403, 'quotaExceeded', 'youtube.quota']);
    } finally {
      google.youtube.setQuota({ dailyUnits: 10_000 });
    }
  });
});
