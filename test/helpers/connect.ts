// The browser's trip through a connect, for any network: auth-url from Crier, the network's authorize
// page (an emulator consents at once and redirects), then Crier's callback, whose answer (302 to the
// app's redirect_uri, or JSON without one) the test then reads.
import assert from 'node:assert/strict';
import { openSecret } from '../../src/accounts/secrets.ts';
import { refreshDueTokens, type RefreshOutcome } from '../../src/accounts/token-refresh.ts';
import { decodeId } from '../../src/core/ids.ts';
import type { NetworkId } from '../../src/core/network-id.ts';
import { startTestServer, type TestOrg, type TestServer } from './harness.ts';

/** Where a connect's own redirect_uri sends the user back to: the app's page, not Crier's. */
export const APP_REDIRECT_URI = 'https://app.example.com/connected';

/** The OAuth app of an org, as registered both with the emulator and with Crier. */
export interface OAuthApp {
  clientId: string;
  clientSecret: string;
}

/** What startConnectServer needs of an emulator: its origin, app registration, and a way to stop it. */
export interface ConnectEmulator {
  url: string;
  addApp(app: OAuthApp & { redirectUris: string[] }): void;
  close(): Promise<void>;
}

/** What a connect's trip through the browser leaves for the test to read. */
export interface ConnectTrip {
  /** The authorize URL Crier handed out. */
  authUrl: URL;
  /** Path and query of Crier's callback as the network redirected to it. */
  callbackPath: string;
  /** Crier's answer to the callback (redirects not followed). */
  callback: Response;
  /** The 302's target, when Crier redirected. */
  redirectedTo: URL | undefined;
}

/** Registers the org's own OAuth app for a network with Crier (POST /v1/social-networks). */
export async function registerApp(server: TestServer, org: TestOrg, network: NetworkId, app: OAuthApp): Promise<void> {
  const res = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network, client_key: app.clientId, client_secret: app.clientSecret } });
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
}

/** Crier's callback URL for a network, as the network's app must have it registered. */
export function callbackUrl(server: TestServer, network: NetworkId): string {
  return `${server.config.publicBaseUrl}/oauth/callback/${network}`;
}

/**
 * A test server whose network points at the emulator (CRIER_<NETWORK>_BASE_URL), the app registered
 * with the emulator for Crier's callback, and a new org with that app: the setup of every connect test.
 */
export async function startConnectServer<E extends ConnectEmulator>(network: NetworkId, emulator: E, app: OAuthApp): Promise<{ emulator: E; server: TestServer; org: TestOrg }> {
  const server = await startTestServer({ [`CRIER_${network.toUpperCase()}_BASE_URL`]: emulator.url });
  emulator.addApp({ ...app, redirectUris: [callbackUrl(server, network)] });
  const org = await server.createOrg();
  await registerApp(server, org, network, app);
  return { emulator, server, org };
}

/** Closes what startConnectServer and the test started: the server (and its database), then the emulator. */
export async function stopConnectServer(server: TestServer, emulator: ConnectEmulator): Promise<void> {
  await server.close();
  await emulator.close();
}

/** Starts a connect and follows the network's consent up to (not into) Crier's callback, so a test can call it as it likes. */
export async function authorizeTrip(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<{ authUrl: URL; callbackPath: string }> {
  const res = await server.request('POST', `/v1/social-networks/${network}/auth-url`, { key: org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const authUrl = new URL(res.body.data.auth_url);
  const consent = await fetch(authUrl, { redirect: 'manual' });
  assert.equal(consent.status, 302, `the ${network} authorize page should redirect: ${await consent.clone().text()}`);
  const location = new URL(consent.headers.get('location')!);
  // The callback URL is built on PUBLIC_BASE_URL; the test server listens elsewhere, so only the path and query count.
  assert.equal(`${location.origin}${location.pathname}`, callbackUrl(server, network));
  return { authUrl, callbackPath: location.pathname + location.search };
}

/** Starts a connect and follows the network's consent to Crier's callback. */
export async function connectTrip(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<ConnectTrip> {
  const { authUrl, callbackPath } = await authorizeTrip(server, org, network, body);
  const callback = await fetch(server.url + callbackPath, { redirect: 'manual' });
  const target = callback.headers.get('location');
  return { authUrl, callbackPath, callback, redirectedTo: target ? new URL(target) : undefined };
}

/**
 * Checks an authorize URL: its endpoint, then each named query parameter equal to a string, matching a
 * RegExp (random values: state, PKCE challenge), or absent (null). Parameters not named are not checked.
 */
export function assertAuthorizeUrl(authUrl: URL, endpoint: string, params: Record<string, string | RegExp | null>): void {
  assert.equal(`${authUrl.origin}${authUrl.pathname}`, endpoint);
  for (const [name, expected] of Object.entries(params)) {
    const actual = authUrl.searchParams.get(name);
    if (expected instanceof RegExp) {
      assert.ok(actual !== null, `${name} is missing from ${authUrl}`);
      assert.match(actual, expected, name);
    } else {
      assert.equal(actual, expected, name);
    }
  }
}

/** A connect whose callback must send the user back to the app's redirect_uri (302): the query Crier put on it (?error=…, ?account_id=…). */
export async function connectBackToApp(server: TestServer, org: TestOrg, network: NetworkId): Promise<URLSearchParams> {
  return (await connectBack(server, org, network, {})).redirectedTo!.searchParams;
}

/** The trip of a connect with the app's redirect_uri, its callback checked to be the 302 back to the app. */
async function connectBack(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown>): Promise<ConnectTrip> {
  const trip = await connectTrip(server, org, network, { redirect_uri: APP_REDIRECT_URI, ...body });
  assert.equal(trip.callback.status, 302, await trip.callback.clone().text());
  return trip;
}

/** A query parameter the redirect back to the app must carry. */
function requiredParam(trip: ConnectTrip, name: string): string {
  const value = trip.redirectedTo?.searchParams.get(name);
  assert.ok(value, `expected ?${name} in ${trip.redirectedTo}`);
  return value;
}

/** A connect that must end with one account: its id from the redirect. */
export async function connectOne(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<{ accountId: string; trip: ConnectTrip }> {
  const trip = await connectBack(server, org, network, body);
  return { accountId: requiredParam(trip, 'account_id'), trip };
}

/** A connect that must end in a pending session (pages to pick): its token from the redirect. */
export async function connectPending(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<{ session: string; trip: ConnectTrip }> {
  const trip = await connectBack(server, org, network, body);
  return { session: requiredParam(trip, 'session'), trip };
}

/** Connects the signed-in user again: it must land on the same account; that account as stored now. */
export async function reconnectSameAccount(server: TestServer, org: TestOrg, network: NetworkId, accountId: string): Promise<StoredAccount> {
  const again = await connectOne(server, org, network);
  assert.equal(again.accountId, accountId);
  return storedAccount(server, decodeId(accountId)!);
}

/** A consent the user declined: back at the app with ?error=access_denied and without `absent` (no account, no session). */
export async function expectConsentDeclined(server: TestServer, org: TestOrg, network: NetworkId, absent: 'account_id' | 'session' = 'account_id'): Promise<void> {
  const back = await connectBackToApp(server, org, network);
  assert.equal(back.get('error'), 'access_denied');
  assert.equal(back.get(absent), null);
}

/** What connectNewUser needs of an emulator: adding a user and signing them in on its consent page. */
export interface UserEmulator<Input, User> {
  addUser(input?: Input): User;
  signIn(userId: string): void;
}

/** A new emulator user, signed in and connected through the whole flow: most tests want an account of their own. */
export async function connectNewUser<Input, User>(
  server: TestServer, org: TestOrg, network: NetworkId, emulator: UserEmulator<Input, User>, userId: (user: User) => string, input?: Input, body: Record<string, unknown> = {},
): Promise<{ user: User; accountId: string; rawId: number; trip: ConnectTrip }> {
  const user = emulator.addUser(input);
  emulator.signIn(userId(user));
  const { accountId, trip } = await connectOne(server, org, network, body);
  return { user, accountId, rawId: decodeId(accountId)!, trip };
}

/** Runs `fn` while the emulator's consent dialog declines, and makes it consent again even when `fn` throws. */
export async function whileConsentDeclined<T>(emulator: { declineConsent(decline: boolean): void }, fn: () => Promise<T>): Promise<T> {
  emulator.declineConsent(true);
  try {
    return await fn();
  } finally {
    emulator.declineConsent(false);
  }
}

/** The account as GET /v1/social-accounts lists it. */
export async function listedAccount(server: TestServer, org: TestOrg, accountId: string): Promise<any> {
  const res = await server.request('GET', `/v1/social-accounts?id=${accountId}`, { key: org.key });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.length, 1, `account ${accountId} should be listed`);
  return res.body.data[0];
}

/** GET of a pending connection by its session token (no API key: the token is the credential). */
export function pendingConnection(server: TestServer, session: string) {
  return server.request('GET', `/v1/social-accounts/pending/${session}`);
}

/** Finalizes a pending connection with the picked page ids (sent as given, to test bad picks too). */
export function finalizeConnection(server: TestServer, session: string, selectedPageIds: unknown) {
  return server.request('POST', `/v1/social-accounts/pending/${session}/finalize`, { body: { selectedPageIds } });
}

/** An account's row with its sealed tokens opened (see storedAccount). */
export interface StoredAccount {
  /** The social_accounts row as PostgreSQL has it (tokens sealed). */
  row: any;
  /** The opened access token. */
  access: string | null;
  /** The opened refresh token, null when none is stored. */
  refresh: string | null;
  /** token_expires_at: null for a token that does not expire. */
  expiresAt: Date | null;
  active: boolean;
}

/** The account as stored, its tokens opened: what a test checks a connect or a refresh wrote. */
export async function storedAccount(server: TestServer, rawId: number): Promise<StoredAccount> {
  const row = (await server.db.query('SELECT * FROM social_accounts WHERE id = $1', [rawId])).rows[0];
  return {
    row,
    access: openSecret(server.box, rawId, 'access', row.access_token_enc),
    refresh: openSecret(server.box, rawId, 'refresh', row.refresh_token_enc),
    expiresAt: row.token_expires_at,
    active: row.is_active,
  };
}

/** The social_accounts rows as text (one account's, or every one's): to check no token is there in plaintext. */
export async function accountRowsText(server: TestServer, rawId?: number): Promise<string> {
  const { rows } = rawId === undefined
    ? await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a')
    : await server.db.query('SELECT to_jsonb(a)::text AS t FROM social_accounts a WHERE id = $1', [rawId]);
  return JSON.stringify(rows);
}

/** Moves an account's expiry a minute ahead, inside every network's refresh window, so the next pass picks it. */
export async function makeTokenDue(server: TestServer, rawId: number): Promise<void> {
  await server.db.query(`UPDATE social_accounts SET token_expires_at = now() + interval '1 minute' WHERE id = $1`, [rawId]);
}

/** One pass of the refresher, as the scheduler runs it; the outcome per account id. */
export function refreshTokens(server: TestServer) {
  return refreshDueTokens(server.db, server.box, server.networks);
}

/** Makes the account due, then one refresher pass: what that pass did with this account. */
export async function refreshWhenDue(server: TestServer, rawId: number) {
  await makeTokenDue(server, rawId);
  return (await refreshTokens(server)).get(rawId);
}

/** One refresher pass over the account made due, which must end in `outcome`: the account as stored before and after it. */
export async function refreshDueAccount(server: TestServer, rawId: number, outcome: RefreshOutcome): Promise<{ before: StoredAccount; now: StoredAccount }> {
  const before = await storedAccount(server, rawId);
  assert.equal(await refreshWhenDue(server, rawId), outcome);
  return { before, now: await storedAccount(server, rawId) };
}

/** The account.token_expired events of one account: a disconnect must emit exactly one. */
export async function tokenExpiredEvents(server: TestServer, orgId: number, rawId: number): Promise<{ type: string; data: any }[]> {
  const { rows } = await server.db.query('SELECT type, data FROM events WHERE org_id = $1 ORDER BY created_at, id', [orgId]);
  return rows.filter((e: any) => e.type === 'account.token_expired' && e.data.accountId === rawId);
}

/** The listed account's profile fields in one object, so a test compares them all at once. */
export async function listedProfile(server: TestServer, org: TestOrg, accountId: string) {
  const a = await listedAccount(server, org, accountId);
  return {
    network: a.network, username: a.username, nickname: a.nickname, uid: a.network_unique_id,
    picture: a.profile_picture_url, tenantId: a.tenantId, accountType: a.accountType, isActive: a.isActive,
  };
}

/**
 * For an account whose grant is dead: a due refresh disconnects it, a later pass (due again) leaves it
 * alone, it is listed inactive, and exactly one account.token_expired was emitted; returns that event.
 */
export async function expectDisconnectedOnce(server: TestServer, org: TestOrg, accountId: string, rawId: number): Promise<{ type: string; data: any }> {
  assert.equal(await refreshWhenDue(server, rawId), 'disconnected');
  assert.equal(await refreshWhenDue(server, rawId), undefined, 'an inactive account is not picked again');
  const listed = await listedAccount(server, org, accountId);
  assert.equal(listed.isActive, 0);
  const events = await tokenExpiredEvents(server, org.orgId, rawId);
  assert.equal(events.length, 1);
  assert.equal(listed.disconnectedReason, events[0]!.data.error, 'the account says why, as the event did');
  assert.ok(Math.abs(Date.parse(listed.disconnectedAt) - Date.now()) < 60_000, `disconnectedAt ${listed.disconnectedAt}`);
  return events[0]!;
}
