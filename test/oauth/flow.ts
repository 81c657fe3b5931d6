// The OAuth flow of POST /mcp step by step over HTTP, as an MCP client and the dashboard's consent
// page make it: register, authorize (to the consent page), consent with an API key, exchange the
// code, refresh. The tests of refusals drive it by hand to change one step at a time.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from '../helpers/harness.ts';

export const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The MCP endpoint as Crier names it (PUBLIC_BASE_URL + /mcp): the `resource` of every request. */
export const resourceOf = (server: TestServer) => `${server.config.publicBaseUrl}/mcp`;

/**
 * The test servers of the OAuth tests trust the loopback proxy (CRIER_TRUST_PROXY), so that each
 * registration can come from an address of its own, as from clients on different machines:
 * registration is limited per address (routes/oauth-register.ts), and only the test of that limit
 * sends many from one address.
 */
export const TRUST_LOOPBACK_PROXY = { CRIER_TRUST_PROXY: 'loopback' };
let addressCounter = 0;
/** An address no other registration of this process came from. */
export const newClientAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

/** POST /oauth/register from `address` (a new one unless given): status, body, headers. */
export async function registerFrom(server: TestServer, body: unknown, address = newClientAddress()) {
  return server.request('POST', '/oauth/register', { body, headers: { 'x-forwarded-for': address } });
}

export async function register(server: TestServer, metadata: Record<string, unknown> = {}): Promise<{ client_id: string; client_name: string }> {
  const answer = await registerFrom(server, { client_name: 'Test agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body;
}

/** The authorization request's parameters, as the client puts them in the authorize URL. */
export function authorizationParams(clientId: string, pkce: Pkce, server: TestServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: `state-${randomBytes(4).toString('hex')}`,
    resource: resourceOf(server),
    ...extra,
  };
}

/** GET /oauth/authorize without following the redirect. */
export async function authorize(server: TestServer, params: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
}

/** What the consent page does: POST /v1/oauth/consent with the signed-in key; the URL the browser goes to next. */
export async function consent(server: TestServer, key: string, params: Record<string, string>, approve = true): Promise<URL> {
  const answer = await server.request('POST', '/v1/oauth/consent', { key, body: { ...params, approve } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return new URL(answer.body.data.redirectTo);
}

/** POST /oauth/token with a form; the status and the parsed answer. */
export async function token(server: TestServer, form: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** POST /oauth/revoke with a form; the status, the raw answer and its headers. */
export async function revoke(server: TestServer, form: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export interface Grant {
  clientId: string;
  pkce: Pkce;
  accessToken: string;
  refreshToken: string;
}

/** A whole flow for `key`'s organization: a registered client with its first tokens. */
export async function grantFor(server: TestServer, key: string): Promise<Grant> {
  const { client_id: clientId } = await register(server);
  const pkce = newPkce();
  const redirect = await consent(server, key, authorizationParams(clientId, pkce, server));
  const answer = await token(server, { grant_type: 'authorization_code', client_id: clientId, code: redirect.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier, resource: resourceOf(server) });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return { clientId, pkce, accessToken: answer.body.access_token, refreshToken: answer.body.refresh_token };
}

/** An MCP request (tools/list) with `bearer`: its status. */
export async function mcpStatus(server: TestServer, bearer: string): Promise<number> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.body?.cancel();
  return response.status;
}
