// POST /mcp signed in with OAuth by the official MCP SDK client (its OAuthClientProvider), against a
// started Crier behind an HTTPS front at its PUBLIC_BASE_URL, over real HTTP: discovery from the
// 401, dynamic registration, the authorization request, consent given with an API key as the
// dashboard's page gives it, the code exchange, tool calls, a refresh once the access token has
// expired, and the end of it all when the grant's key is revoked on the keys page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TestAccount, TestOrg } from '../helpers/harness.ts';
import { startMediaServer, type MediaHarness } from '../helpers/media.ts';

const REDIRECT_URL = 'http://127.0.0.1:33418/oauth/callback';

/** What an MCP client keeps: its registration, tokens and PKCE verifier; the authorization URL it would open. */
class RecordingProvider implements OAuthClientProvider {
  registration: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier = '';
  opened: URL[] = [];
  invalidated: string[] = [];

  private readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  get redirectUrl() { return REDIRECT_URL; }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT_URL], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return this.registration; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.registration = info; }
  tokens() { return this.stored; }
  saveTokens(tokens: OAuthTokens) { this.stored = tokens; }
  redirectToAuthorization(url: URL) { this.opened.push(url); }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
  invalidateCredentials(scope: string) {
    this.invalidated.push(scope);
    if (scope === 'tokens' || scope === 'all') this.stored = undefined;
    if (scope === 'all') this.registration = undefined;
  }
}

let h: MediaHarness;
let org: TestOrg;
let other: TestOrg;
let account: TestAccount;
/** The token endpoint's answers, as the client received them. */
const tokenAnswers: { status: number; body: any }[] = [];
const clients: Client[] = [];

let inFlight = 0;

/** The harness's fetch (it trusts the front's certificate), answering the global Response the SDK checks for. */
const sdkFetch: FetchLike = async (url, init) => {
  inFlight += 1;
  try {
    const response = await h.fetch(String(url), init as never);
    const body = [204, 304].includes(response.status) ? null : await response.arrayBuffer();
    if (String(url).endsWith('/oauth/token')) tokenAnswers.push({ status: response.status, body: JSON.parse(Buffer.from(body!).toString()) });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers as unknown as Headers });
  } finally {
    inFlight -= 1;
  }
};

/**
 * Once connected, the client also opens its event stream (GET /mcp, answered 405) without waiting:
 * the tests change tokens only after it, so that each counts the requests of its own call.
 */
async function quiet(): Promise<void> {
  // A timer first: the stream's request starts after a few promise turns, all run before a timer fires.
  do await new Promise((resolve) => setTimeout(resolve, 5));
  while (inFlight > 0);
}

before(async () => {
  h = await startMediaServer();
  org = await h.server.createOrg();
  other = await h.server.createOrg();
  account = await h.server.addAccount(org, 'x', 'alice_x');
  await h.server.addAccount(other, 'x', 'bob_x');
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await h.close();
});

const mcpUrl = () => new URL(`${h.front.url}/mcp`);

async function connect(provider: RecordingProvider): Promise<Client> {
  const client = new Client({ name: 'crier-oauth-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider, fetch: sdkFetch }));
  return client;
}

/**
 * What the user does between the client opening the authorization URL and the client receiving its
 * code: the browser follows the authorize endpoint to the dashboard's consent page, whose approval
 * (POST /v1/oauth/consent with the signed-in API key) answers where the browser goes next.
 */
async function approveInDashboard(authorizationUrl: URL, key: string): Promise<URL> {
  const authorize = await h.fetch(authorizationUrl.href, { redirect: 'manual' });
  assert.equal(authorize.status, 302);
  const consentPage = new URL(authorize.headers.get('location')!, h.front.url);
  assert.equal(consentPage.pathname, '/');
  assert.match(consentPage.hash, /^#\/consent\?/);
  const params = Object.fromEntries(new URLSearchParams(consentPage.hash.slice(consentPage.hash.indexOf('?') + 1)));
  const shown = await h.server.request('GET', `/v1/oauth/consent?${new URLSearchParams(params)}`, { key });
  assert.equal(shown.status, 200, JSON.stringify(shown.body));
  assert.equal(shown.body.data.returnTo, 'http://127.0.0.1:33418');
  const approved = await h.server.request('POST', '/v1/oauth/consent', { key, body: { ...params, approve: true } });
  assert.equal(approved.status, 200, JSON.stringify(approved.body));
  return new URL(approved.body.data.redirectTo);
}

/** The whole sign-in: the first connect is refused and opens the authorization URL; consent; finishAuth; connected. */
async function signIn(provider: RecordingProvider, key: string): Promise<Client> {
  const first = new Client({ name: 'crier-oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider, fetch: sdkFetch });
  await assert.rejects(first.connect(transport), UnauthorizedError);
  const callback = await approveInDashboard(provider.opened.at(-1)!, key);
  await transport.finishAuth(callback.searchParams.get('code')!);
  await first.close();
  const client = await connect(provider);
  await quiet();
  return client;
}

const grantKeyOf = async (key: string, clientName: string) =>
  (await h.server.request('GET', '/v1/api-keys?limit=100', { key })).body.data.find((k: any) => k.name === `MCP: ${clientName}`);

describe('POST /mcp with the official client\'s OAuth', () => {
  test('without credentials, a 401 whose WWW-Authenticate names the protected resource metadata, which names Crier as the authorization server', async () => {
    const response = await h.fetch(mcpUrl().href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 401);
    const metadataUrl = `${h.front.url}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(response.headers.get('www-authenticate'), `Bearer resource_metadata="${metadataUrl}"`);
    const resource: any = await (await h.fetch(metadataUrl)).json();
    assert.deepEqual(resource.resource, mcpUrl().href);
    assert.deepEqual(resource.authorization_servers, [h.front.url]);
    const server: any = await (await h.fetch(`${h.front.url}/.well-known/oauth-authorization-server`)).json();
    assert.equal(server.issuer, h.front.url);
    assert.deepEqual(server.code_challenge_methods_supported, ['S256']);
    assert.equal(server.token_endpoint, `${h.front.url}/oauth/token`);
  });

  test('discovery, registration, consent and the code exchange; then tools listed and called as the consenting organization', async () => {
    const provider = new RecordingProvider('Agent One');
    const client = await signIn(provider, org.key);
    // The authorization URL the SDK built from the discovered metadata: PKCE S256 and the MCP endpoint as resource.
    const opened = provider.opened[0]!;
    assert.equal(opened.origin + opened.pathname, `${h.front.url}/oauth/authorize`);
    assert.equal(opened.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(opened.searchParams.get('resource'), mcpUrl().href);
    assert.equal(opened.searchParams.get('client_id'), provider.registration!.client_id);
    assert.match(provider.stored!.access_token, /^crier-at-/);

    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'list_accounts'));
    const listed = await client.callTool({ name: 'list_accounts', arguments: {} });
    assert.equal(listed.isError, undefined, JSON.stringify(listed.content));
    assert.deepEqual((listed.structuredContent as any).data.map((a: any) => a.id), [account.id]);
    // The grant is a key record of the organization, on its keys page, used by these calls.
    const grantKey = await grantKeyOf(org.key, 'Agent One');
    assert.ok(grantKey, 'the grant is listed with the organization\'s API keys');
    assert.equal(grantKey.revokedAt, null);
  });

  test('an expired access token: the client refreshes by itself (the refresh token rotated) and the call goes through', async () => {
    const provider = new RecordingProvider('Agent Two');
    const client = await signIn(provider, org.key);
    const before = { ...provider.stored! };
    await h.server.db.query("UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = sha256($1::text::bytea)", [before.access_token]);
    const answersBefore = tokenAnswers.length;
    const listed = await client.callTool({ name: 'list_accounts', arguments: {} });
    assert.equal(listed.isError, undefined, JSON.stringify(listed.content));
    assert.deepEqual(tokenAnswers.slice(answersBefore).map((a) => a.status), [200], `one refresh at the token endpoint: ${JSON.stringify(tokenAnswers.slice(answersBefore))}`);
    assert.notEqual(provider.stored!.access_token, before.access_token);
    assert.notEqual(provider.stored!.refresh_token, before.refresh_token);
    assert.equal(provider.opened.length, 1, 'no new authorization was needed');
  });

  test('revoking the grant\'s key on the keys page: the next call is a 401, the refresh fails with invalid_grant, and the client must authorize again', async () => {
    const provider = new RecordingProvider('Agent Three');
    const client = await signIn(provider, org.key);
    assert.equal((await client.listTools()).tools.length > 0, true);
    const grantKey = await grantKeyOf(org.key, 'Agent Three');
    assert.equal((await h.server.request('DELETE', `/v1/api-keys/${grantKey.id}`, { key: org.key })).status, 200);
    const answersBefore = tokenAnswers.length;
    await assert.rejects(client.callTool({ name: 'list_accounts', arguments: {} }), UnauthorizedError);
    const refreshes = tokenAnswers.slice(answersBefore);
    assert.deepEqual(refreshes.map((a) => [a.status, a.body.error]), [[400, 'invalid_grant']]);
    assert.deepEqual(provider.invalidated, ['tokens']);
    assert.equal(provider.opened.length, 2, 'the client was sent to authorize again');
  });

  test('another organization\'s grant sees only its own data: the first organization\'s post is a 404', async () => {
    const mine = await signIn(new RecordingProvider('Agent Four'), org.key);
    const created = await mine.callTool({ name: 'create_post', arguments: { accounts: [account.id], content: 'private', isDraft: true } });
    assert.equal(created.isError, undefined, JSON.stringify(created.content));
    const id = (created.structuredContent as any).post.id;
    const theirs = await signIn(new RecordingProvider('Agent Five'), other.key);
    const read = await theirs.callTool({ name: 'get_post', arguments: { id } });
    assert.equal(read.isError, true);
    assert.equal((read.structuredContent as any).status, 404);
    const accounts = await theirs.callTool({ name: 'list_accounts', arguments: {} });
    assert.deepEqual((accounts.structuredContent as any).data.map((a: any) => a.username), ['bob_x']);
    assert.equal(await grantKeyOf(org.key, 'Agent Five'), undefined, 'the grant is the other organization\'s key');
  });
});
