// The Pinterest emulator's contract over real HTTP: the consent page, POST /v5/oauth/token with
// HTTP Basic only (credentials in the form are refused), single-use codes, rotating continuous
// refresh tokens, and {code, message} errors (2 authentication failed, 283 invalid grant, 29 not
// permitted).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPinterestEmulator, type PinterestEmulator } from '../../emulators/index.ts';

let pin: PinterestEmulator;
const REDIRECT = 'https://crier.example/oauth/callback/pinterest';
const APP = { clientId: '1500000', clientSecret: 'pin-secret', redirectUris: [REDIRECT] };
const AUTH_FAILED = { code: 2, message: 'Authentication failed.' };
const BAD_GRANT = { code: 283, message: 'The authorization grant is invalid' };

before(async () => {
  pin = await startPinterestEmulator();
  pin.addApp(APP);
});
after(() => pin.close());

async function consent(scope = 'boards:read,pins:read,pins:write,user_accounts:read', redirectUri = REDIRECT): Promise<URL> {
  const url = new URL(`${pin.url}/oauth/`);
  url.search = new URLSearchParams({ client_id: APP.clientId, redirect_uri: redirectUri, response_type: 'code', scope, state: 'st' }).toString();
  const res = await fetch(url, { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  return new URL(res.headers.get('location')!);
}

async function token(form: Record<string, string>, auth: string | null = `${APP.clientId}:${APP.clientSecret}`) {
  const res = await fetch(`${pin.url}/v5/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {}) },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const codeGrant = (code: string, redirectUri = REDIRECT) => token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, continuous_refresh: 'true' });
const userAccount = async (accessToken: string) => {
  const res = await fetch(`${pin.url}/v5/user_account`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('Pinterest emulator', () => {
  test('consent redirects with code and state; an unknown app or redirect URI is refused', async () => {
    const user = pin.addUser({});
    pin.signIn(user.id);
    const back = await consent();
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
    assert.equal(back.searchParams.get('state'), 'st');
    assert.ok(back.searchParams.get('code'));
    assert.equal((await consent('boards:read,nonsense')).searchParams.get('error'), 'invalid_scope');
    const elsewhere = await fetch(`${pin.url}/oauth/?client_id=${APP.clientId}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&response_type=code&scope=pins:read`, { redirect: 'manual' });
    assert.equal(elsewhere.status, 400);
    const unknown = await fetch(`${pin.url}/oauth/?client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=pins:read`, { redirect: 'manual' });
    assert.equal(unknown.status, 400);
  });

  test('the token endpoint takes the app only through HTTP Basic', async () => {
    const user = pin.addUser({});
    pin.signIn(user.id);
    const code = (await consent()).searchParams.get('code')!;
    const inBody = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: APP.clientId, client_secret: APP.clientSecret }, null);
    assert.deepEqual(inBody, { status: 401, body: AUTH_FAILED });
    assert.deepEqual(await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, `${APP.clientId}:wrong`), { status: 401, body: AUTH_FAILED });
    // Refused before the code was looked at: it still works, once.
    const first = await codeGrant(code);
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'refresh_token_expires_at', 'refresh_token_expires_in', 'response_type', 'scope', 'token_type']);
    assert.equal(first.body.token_type, 'bearer');
    assert.equal(first.body.response_type, 'authorization_code');
    assert.equal(first.body.expires_in, 30 * 24 * 3600);
    assert.equal(first.body.refresh_token_expires_in, 60 * 24 * 3600);
    assert.equal(first.body.scope, 'boards:read,pins:read,pins:write,user_accounts:read');
    assert.deepEqual(await codeGrant(code), { status: 401, body: BAD_GRANT });
    const other = (await consent()).searchParams.get('code')!;
    assert.deepEqual(await codeGrant(other, 'https://crier.example/elsewhere'), { status: 401, body: BAD_GRANT });
    const recorded = pin.tokenRequests().at(-1)!;
    assert.equal(recorded.basic, true);
    assert.equal(recorded.form.continuous_refresh, 'true');
  });

  test('refresh rotates: a new refresh token each time, the old one is dead', async () => {
    const user = pin.addUser({});
    pin.signIn(user.id);
    const granted = (await codeGrant((await consent()).searchParams.get('code')!)).body;
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.response_type, 'refresh_token');
    assert.ok(refreshed.body.refresh_token && refreshed.body.refresh_token !== granted.refresh_token);
    assert.notEqual(refreshed.body.access_token, granted.access_token);
    assert.equal((await userAccount(refreshed.body.access_token)).status, 200);
    assert.deepEqual(await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token }), { status: 401, body: BAD_GRANT });
    // Refresh tokens live 60 days.
    pin.clock.advance(61 * 24 * 3600 * 1000);
    assert.deepEqual(await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }), { status: 401, body: BAD_GRANT });
  });

  test('user_account: the profile; expired or revoked tokens answer code 2; a missing scope code 29', async () => {
    const user = pin.addUser({ username: 'acme_pins', accountType: 'BUSINESS', businessName: 'Acme' });
    pin.signIn(user.id);
    const granted = (await codeGrant((await consent()).searchParams.get('code')!)).body;
    const me = await userAccount(granted.access_token);
    assert.deepEqual(
      { account_type: me.body.account_type, id: me.body.id, username: me.body.username, business_name: me.body.business_name, profile_image: me.body.profile_image },
      { account_type: 'BUSINESS', id: user.id, username: 'acme_pins', business_name: 'Acme', profile_image: user.profileImage },
    );
    const limited = (await codeGrant((await consent('pins:read')).searchParams.get('code')!)).body;
    assert.deepEqual(await userAccount(limited.access_token), { status: 403, body: { code: 29, message: 'You are not permitted to access that resource.' } });
    pin.revokeUser(user.id);
    assert.deepEqual(await userAccount(granted.access_token), { status: 401, body: AUTH_FAILED });
    assert.deepEqual(await token({ grant_type: 'refresh_token', refresh_token: granted.refresh_token }), { status: 401, body: BAD_GRANT });

    const later = pin.addUser({});
    pin.signIn(later.id);
    const fresh = (await codeGrant((await consent()).searchParams.get('code')!)).body;
    pin.clock.advance(31 * 24 * 3600 * 1000);
    assert.deepEqual(await userAccount(fresh.access_token), { status: 401, body: AUTH_FAILED });
  });
});

describe('Pinterest emulator: pins after publishing and analytics', () => {
  const DAY_MS = 86_400_000;
  // The emulator's own today: earlier tests move its clock on.
  const day = (daysAgo: number) => new Date(pin.clock.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  const get = async (path: string, accessToken: string, init: RequestInit = {}) => {
    const res = await fetch(`${pin.url}${path}`, { ...init, headers: { authorization: `Bearer ${accessToken}` } });
    return { status: res.status, body: res.status === 204 ? undefined : (await res.json()) as any };
  };
  const owner = () => {
    const user = pin.addUser({});
    const board = pin.addBoard({ ownerId: user.id });
    return { user, board, token: pin.issueToken(user.id) };
  };

  test('DELETE /v5/pins/{id}: 204, then 404 Pin not found; someone else\'s pin is a 404 too', async () => {
    const a = owner();
    const b = owner();
    const mine = pin.addPin({ boardId: a.board.id });
    const theirs = pin.addPin({ boardId: b.board.id });
    assert.equal((await get(`/v5/pins/${mine.id}`, a.token, { method: 'DELETE' })).status, 204);
    assert.deepEqual(await get(`/v5/pins/${mine.id}`, a.token, { method: 'DELETE' }), { status: 404, body: { code: 404, message: 'Pin not found.' } });
    assert.equal((await get(`/v5/pins/${theirs.id}`, a.token, { method: 'DELETE' })).status, 404);
    assert.equal((await get(`/v5/pins/${theirs.id}`, b.token)).status, 200);
  });

  test('GET /v5/pins: the user\'s pins newest first, bookmark pages, a repin\'s parent_pin_id', async () => {
    const a = owner();
    const first = pin.addPin({ boardId: a.board.id, parentPinId: '99' });
    const second = pin.addPin({ boardId: a.board.id, images: 2 });
    const page = await get('/v5/pins?page_size=1', a.token);
    assert.deepEqual(page.body.items.map((p: any) => [p.id, p.media.media_type, p.media.items?.length]), [[second.id, 'multiple_images', 2]]);
    const next = await get(`/v5/pins?page_size=1&bookmark=${page.body.bookmark}`, a.token);
    assert.deepEqual(next.body.items.map((p: any) => [p.id, p.parent_pin_id]), [[first.id, '99']]);
    assert.equal(next.body.bookmark, null);
  });

  test('pins/analytics: sums over the range, lifetime counts apart; Pinterest\'s limits are 400s', async () => {
    const a = owner();
    const image = pin.addPin({ boardId: a.board.id });
    pin.setPinAnalytics(image.id, [{ date: day(2), metrics: { IMPRESSION: 10, SAVE: 1 } }, { date: day(1), metrics: { IMPRESSION: 5 } }], { TOTAL_COMMENTS: 3 });
    const ok = await get(`/v5/pins/${image.id}/analytics?start_date=${day(3)}&end_date=${day(0)}&metric_types=IMPRESSION,SAVE,TOTAL_COMMENTS`, a.token);
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.all.summary_metrics, { IMPRESSION: 15, SAVE: 1 });
    assert.deepEqual(ok.body.all.lifetime_metrics, { TOTAL_COMMENTS: 3 });
    assert.deepEqual(ok.body.all.daily_metrics.map((d: any) => [d.date, d.data_status]), [[day(2), 'READY'], [day(1), 'READY']]);
    const invalid = { status: 400, body: { code: 400, message: 'Invalid pins analytics parameters.' } };
    for (const query of [
      `start_date=${day(91)}&end_date=${day(0)}&metric_types=IMPRESSION`,
      `start_date=${day(1)}&end_date=${day(2)}&metric_types=IMPRESSION`,
      `start_date=${day(1)}&end_date=${day(0)}`,
      `start_date=${day(1)}&end_date=${day(0)}&metric_types=VIDEO_MRC_VIEW`,
      `start_date=yesterday&end_date=${day(0)}&metric_types=IMPRESSION`,
    ]) assert.deepEqual(await get(`/v5/pins/${image.id}/analytics?${query}`, a.token), invalid, query);
  });

  test('user_account/analytics: all metrics by default; user_accounts:read required', async () => {
    const a = owner();
    pin.setAccountAnalytics(a.user.id, [{ date: day(1), metrics: { ENGAGEMENT: 4, IMPRESSION: 40 } }]);
    const res = await get(`/v5/user_account/analytics?start_date=${day(7)}&end_date=${day(0)}`, a.token);
    assert.equal(res.body.all.summary_metrics.ENGAGEMENT, 4);
    assert.equal(res.body.all.summary_metrics.SAVE, 0);
    const narrow = pin.issueToken(a.user.id, ['pins:read']);
    assert.deepEqual(await get(`/v5/user_account/analytics?start_date=${day(7)}&end_date=${day(0)}`, narrow), { status: 403, body: { code: 29, message: 'You are not permitted to access that resource.' } });
  });
});

describe('Pinterest emulator: requests held to the description (api-description v5, emulators/pinterest/description/)', () => {
  const call = async (path: string, accessToken: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${pin.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${accessToken}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  test('pins/get needs boards:read as well as pins:read, as its security lists', async () => {
    const user = pin.addUser({});
    const board = pin.addBoard({ ownerId: user.id });
    const made = pin.addPin({ boardId: board.id });
    const pinsOnly = pin.issueToken(user.id, ['pins:read']);
    assert.deepEqual(await call(`/v5/pins/${made.id}`, pinsOnly), { status: 403, body: { code: 29, message: 'You are not permitted to access that resource.' } });
    const both = pin.issueToken(user.id, ['boards:read', 'pins:read']);
    assert.equal((await call(`/v5/pins/${made.id}`, both)).body.id, made.id);
  });

  test('boards/list answers the boards of the `privacy` asked; a value outside BoardPrivacyFilter is code 1', async () => {
    const user = pin.addUser({});
    const open = pin.addBoard({ ownerId: user.id, name: 'open', privacy: 'PUBLIC' });
    const hidden = pin.addBoard({ ownerId: user.id, name: 'hidden', privacy: 'SECRET' });
    const guarded = pin.addBoard({ ownerId: user.id, name: 'guarded', privacy: 'PROTECTED' });
    const token = pin.issueToken(user.id);
    const ids = async (query: string) => (await call(`/v5/boards${query}`, token)).body.items.map((b: any) => b.id);
    assert.deepEqual(await ids(''), [open.id, hidden.id, guarded.id]);
    assert.deepEqual(await ids('?privacy=SECRET'), [hidden.id]);
    assert.deepEqual(await ids('?privacy=PUBLIC_AND_SECRET'), [open.id, hidden.id]);
    const refused = await call('/v5/boards?privacy=HIDDEN', token);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 1);
    assert.match(refused.body.message, /'privacy' must be one of ALL, PUBLIC, PROTECTED, SECRET, PUBLIC_AND_SECRET/);
  });

  test('a repeated query parameter is checked in every value, not only the first', async () => {
    const user = pin.addUser({});
    const token = pin.issueToken(user.id);
    assert.equal((await call('/v5/pins?creative_types=REGULAR&creative_types=VIDEO', token)).status, 200);
    const refused = await call('/v5/pins?creative_types=REGULAR&creative_types=MOVIE', token);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /'creative_types\[1\]' must be one of REGULAR, VIDEO,/);
  });

  test('request bodies are checked against their schema: a field of the wrong type or pattern is code 1 naming it', async () => {
    const user = pin.addUser({});
    const board = pin.addBoard({ ownerId: user.id });
    const token = pin.issueToken(user.id);
    const board400 = await call('/v5/boards', token, { method: 'POST', body: { name: 'Ads', is_ads_only: 'yes' } });
    assert.deepEqual(board400, { status: 400, body: { code: 1, message: "Invalid parameters: 'is_ads_only' must be a boolean" } });
    const source = { source_type: 'image_url', url: 'https://example.com/a.jpg' };
    const pin400 = await call('/v5/pins', token, { method: 'POST', body: { board_id: board.id, parent_pin_id: 'abc', media_source: source } });
    assert.deepEqual(pin400, { status: 400, body: { code: 1, message: "Invalid parameters: 'parent_pin_id' must match ^\\d+$" } });
    const media400 = await call('/v5/media', token, { method: 'POST', body: { media_type: 'image' } });
    assert.deepEqual(media400, { status: 400, body: { code: 1, message: "Invalid parameters: 'media_type' must be one of video" } });
    assert.equal(pin.pins().filter((p) => p.boardId === board.id).length, 0, 'nothing was made');
  });
});
