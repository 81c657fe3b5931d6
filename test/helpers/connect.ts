// The browser's trip through a connect, for any network: auth-url from Crier, the network's authorize
// page (an emulator consents at once and redirects), then Crier's callback, whose answer (302 to the
// app's redirect_uri, or JSON without one) the test then reads.
import assert from 'node:assert/strict';
import type { NetworkId } from '../../src/networks/types.ts';
import type { TestOrg, TestServer } from './harness.ts';

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

export async function registerApp(server: TestServer, org: TestOrg, network: NetworkId, app: { clientId: string; clientSecret: string }): Promise<void> {
  const res = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network, client_key: app.clientId, client_secret: app.clientSecret } });
  assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
}

/** Starts a connect and follows the network's consent to Crier's callback. */
export async function connectTrip(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<ConnectTrip> {
  const res = await server.request('POST', `/v1/social-networks/${network}/auth-url`, { key: org.key, body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const authUrl = new URL(res.body.data.auth_url);
  const consent = await fetch(authUrl, { redirect: 'manual' });
  assert.equal(consent.status, 302, `the ${network} authorize page should redirect: ${await consent.clone().text()}`);
  const location = new URL(consent.headers.get('location')!);
  // The callback URL is built on PUBLIC_BASE_URL; the test server listens elsewhere, so only the path and query count.
  assert.equal(`${location.origin}${location.pathname}`, `${server.config.publicBaseUrl}/oauth/callback/${network}`);
  const callbackPath = location.pathname + location.search;
  const callback = await fetch(server.url + callbackPath, { redirect: 'manual' });
  const target = callback.headers.get('location');
  return { authUrl, callbackPath, callback, redirectedTo: target ? new URL(target) : undefined };
}

/** A connect that must end with one account: its id from the redirect. */
export async function connectOne(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<{ accountId: string; trip: ConnectTrip }> {
  const trip = await connectTrip(server, org, network, { redirect_uri: 'https://app.example.com/connected', ...body });
  assert.equal(trip.callback.status, 302, await trip.callback.clone().text());
  const accountId = trip.redirectedTo?.searchParams.get('account_id');
  assert.ok(accountId, `expected ?account_id in ${trip.redirectedTo}`);
  return { accountId, trip };
}

/** A connect that must end in a pending session (pages to pick): its token from the redirect. */
export async function connectPending(server: TestServer, org: TestOrg, network: NetworkId, body: Record<string, unknown> = {}): Promise<{ session: string; trip: ConnectTrip }> {
  const trip = await connectTrip(server, org, network, { redirect_uri: 'https://app.example.com/connected', ...body });
  assert.equal(trip.callback.status, 302, await trip.callback.clone().text());
  const session = trip.redirectedTo?.searchParams.get('session');
  assert.ok(session, `expected ?session in ${trip.redirectedTo}`);
  return { session, trip };
}

/** The account as GET /v1/social-accounts lists it. */
export async function listedAccount(server: TestServer, org: TestOrg, accountId: string): Promise<any> {
  const res = await server.request('GET', `/v1/social-accounts?id=${accountId}`, { key: org.key });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.length, 1, `account ${accountId} should be listed`);
  return res.body.data[0];
}
