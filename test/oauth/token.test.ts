// POST /oauth/token against a started Crier: the code exchange and the refresh, and each refusal a
// stolen or mangled request meets (PKCE, redirect URI, a code or refresh token used twice, another
// client's code, a malformed request): RFC 6749's error codes, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { authorizationParams, consent, grantFor, mcpStatus, newPkce, REDIRECT_URI, register, resourceOf, token, TRUST_LOOPBACK_PROXY } from './flow.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer(TRUST_LOOPBACK_PROXY);
  org = await server.createOrg();
});
after(() => server.close());

/** A code approved for a fresh client, with what its exchange needs. */
async function approvedCode() {
  const { client_id: clientId } = await register(server);
  const pkce = newPkce();
  const redirect = await consent(server, org.key, authorizationParams(clientId, pkce, server));
  const code = redirect.searchParams.get('code')!;
  const exchange = { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier, resource: resourceOf(server) };
  return { clientId, pkce, code, exchange };
}

const grantKeys = async () => (await server.request('GET', '/v1/api-keys?limit=100', { key: org.key })).body.data.filter((k: any) => k.name.startsWith('MCP: '));

describe('the code exchange', () => {
  test('an approved code gives a bearer access token of an hour and a refresh token; the answer is not cacheable', async () => {
    const { exchange } = await approvedCode();
    const answer = await token(server, exchange);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.token_type, 'Bearer');
    assert.equal(answer.body.expires_in, 3600);
    assert.match(answer.body.access_token, /^crier-at-[A-Za-z0-9_-]{43}$/);
    assert.match(answer.body.refresh_token, /^crier-rt-[A-Za-z0-9_-]{43}$/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(await mcpStatus(server, answer.body.access_token), 200);
    const stored = await server.db.query('SELECT count(*)::int AS n FROM oauth_tokens WHERE token_hash = $1 OR token_hash = $2', [Buffer.from(answer.body.access_token), Buffer.from(answer.body.refresh_token)]);
    assert.equal(stored.rows[0].n, 0, 'only hashes are stored');
  });

  test('a wrong PKCE verifier is invalid_grant, and the code is spent: the right verifier after it fails too', async () => {
    const { exchange } = await approvedCode();
    const wrong = await token(server, { ...exchange, code_verifier: newPkce().verifier });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'invalid_grant');
    assert.match(wrong.body.error_description, /code_verifier/);
    const retried = await token(server, exchange);
    assert.equal(retried.body.error, 'invalid_grant');
  });

  test('a missing code_verifier is invalid_request and leaves the code usable', async () => {
    const { exchange } = await approvedCode();
    const { code_verifier: _verifier, ...withoutVerifier } = exchange;
    const missing = await token(server, withoutVerifier);
    assert.deepEqual([missing.status, missing.body.error], [400, 'invalid_request']);
    assert.equal((await token(server, exchange)).status, 200);
  });

  test('another redirect_uri than the authorization request\'s is invalid_grant', async () => {
    const { exchange } = await approvedCode();
    const answer = await token(server, { ...exchange, redirect_uri: 'http://127.0.0.1:33418/elsewhere' });
    assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_grant']);
  });

  test('a code used twice is refused, and the grant made with it is revoked (its key record and its tokens)', async () => {
    const { exchange } = await approvedCode();
    const first = await token(server, exchange);
    assert.equal(first.status, 200);
    const again = await token(server, exchange);
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
    assert.equal(await mcpStatus(server, first.body.access_token), 401);
    const refreshed = await token(server, { grant_type: 'refresh_token', client_id: exchange.client_id, refresh_token: first.body.refresh_token });
    assert.equal(refreshed.body.error, 'invalid_grant');
  });

  test('another client\'s code is invalid_grant; an unknown client is invalid_client (401)', async () => {
    const { exchange } = await approvedCode();
    const other = await register(server);
    const stolen = await token(server, { ...exchange, client_id: other.client_id });
    assert.deepEqual([stolen.status, stolen.body.error], [400, 'invalid_grant']);
    const unknown = await token(server, { ...exchange, client_id: 'crier-client-nobody' });
    assert.deepEqual([unknown.status, unknown.body.error], [401, 'invalid_client']);
  });

  test('a resource other than the MCP endpoint is invalid_target', async () => {
    const { exchange } = await approvedCode();
    const answer = await token(server, { ...exchange, resource: 'https://elsewhere.example/mcp' });
    assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_target']);
  });
});

describe('the refresh', () => {
  test('a refresh rotates both tokens: the new ones work, the old access token keeps working until it expires', async () => {
    const grant = await grantFor(server, org.key);
    const answer = await token(server, { grant_type: 'refresh_token', client_id: grant.clientId, refresh_token: grant.refreshToken, resource: resourceOf(server) });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.notEqual(answer.body.refresh_token, grant.refreshToken);
    assert.notEqual(answer.body.access_token, grant.accessToken);
    assert.equal(await mcpStatus(server, answer.body.access_token), 200);
  });

  test('a refresh token presented again within seconds by its own client (requests sent side by side) is honoured; the grant stays', async () => {
    const grant = await grantFor(server, org.key);
    const form = { grant_type: 'refresh_token', client_id: grant.clientId, refresh_token: grant.refreshToken };
    const [first, second] = await Promise.all([token(server, form), token(server, form)]);
    assert.deepEqual([first.status, second.status], [200, 200], JSON.stringify([first.body, second.body]));
    assert.equal(await mcpStatus(server, first.body.access_token), 200);
    assert.equal(await mcpStatus(server, second.body.access_token), 200);
    // By another client, the same replay is a theft.
    const thief = await register(server);
    const stolen = await token(server, { ...form, client_id: thief.client_id });
    assert.deepEqual([stolen.status, stolen.body.error], [400, 'invalid_grant']);
    assert.equal(await mcpStatus(server, first.body.access_token), 401, 'the replay by another client revoked the grant');
  });

  test('a refresh token used again later is refused and revokes the whole grant: the tokens of its rotation stop working', async () => {
    const grant = await grantFor(server, org.key);
    const form = { grant_type: 'refresh_token', client_id: grant.clientId, refresh_token: grant.refreshToken };
    const rotated = await token(server, form);
    assert.equal(rotated.status, 200);
    // The replay comes a minute after the use, past the few seconds allowed to requests sent side by side.
    await server.db.query("UPDATE oauth_tokens SET used_at = now() - interval '1 minute' WHERE token_hash = sha256($1::text::bytea)", [grant.refreshToken]);
    const replayed = await token(server, form);
    assert.deepEqual([replayed.status, replayed.body.error], [400, 'invalid_grant']);
    assert.equal(await mcpStatus(server, rotated.body.access_token), 401);
    const next = await token(server, { ...form, refresh_token: rotated.body.refresh_token });
    assert.deepEqual([next.status, next.body.error], [400, 'invalid_grant']);
    assert.match(next.body.error_description, /revoked/);
    const revoked = (await grantKeys()).filter((k: any) => k.revokedAt !== null);
    assert.ok(revoked.length >= 1, 'the grant\'s key record shows revoked on the keys page');
  });

  test('an expired access token is refused at /mcp with invalid_token; the refresh still works', async () => {
    const grant = await grantFor(server, org.key);
    await server.db.query("UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = sha256($1::text::bytea)", [grant.accessToken]);
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${grant.accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), `Bearer error="invalid_token", resource_metadata="${server.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp"`);
    assert.deepEqual(await response.json(), { success: false, error: 'Invalid or expired access token' });
    const refreshed = await token(server, { grant_type: 'refresh_token', client_id: grant.clientId, refresh_token: grant.refreshToken });
    assert.equal(refreshed.status, 200);
  });
});

describe('malformed token requests: RFC 6749 errors, never a 500', () => {
  const cases: [string, RequestInit, number, string][] = [
    ['no grant_type', { body: new URLSearchParams({ client_id: 'x' }) }, 400, 'invalid_request'],
    ['an unsupported grant_type', { body: new URLSearchParams({ grant_type: 'password', client_id: 'x' }) }, 400, 'unsupported_grant_type'],
    ['client_credentials', { body: new URLSearchParams({ grant_type: 'client_credentials' }) }, 400, 'unsupported_grant_type'],
    ['a parameter given twice', { body: 'grant_type=refresh_token&grant_type=refresh_token&client_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 400, 'invalid_request'],
    ['a JSON body', { body: JSON.stringify({ grant_type: 'refresh_token' }), headers: { 'content-type': 'application/json' } }, 400, 'invalid_request'],
    ['malformed JSON', { body: '{"grant_type":', headers: { 'content-type': 'application/json' } }, 400, 'invalid_request'],
    ['a NUL character', { body: 'grant_type=refresh_token&client_id=a%00b&refresh_token=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 400, 'invalid_request'],
    ['no client_id', { body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }) }, 400, 'invalid_request'],
    ['an unknown refresh token', { body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'crier-rt-nothing', client_id: 'x' }) }, 401, 'invalid_client'],
    ['an empty body', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 400, 'invalid_request'],
  ];
  for (const [what, init, status, error] of cases) {
    test(`${what}: ${status} ${error}`, async () => {
      const response = await fetch(`${server.url}/oauth/token`, { method: 'POST', ...init });
      const body = await response.json();
      assert.deepEqual([response.status, body.error], [status, error], JSON.stringify(body));
      assert.equal(typeof body.error_description, 'string');
    });
  }

  test('a complete, valid exchange sent as JSON is refused as not a form; the same as a form then succeeds', async () => {
    const { exchange } = await approvedCode();
    const json = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(exchange) });
    const refused = await json.json();
    assert.deepEqual([json.status, refused.error], [400, 'invalid_request']);
    assert.match(refused.error_description, /x-www-form-urlencoded/);
    assert.equal((await token(server, exchange)).status, 200);
  });

  test('an unknown refresh token of a registered client is invalid_grant', async () => {
    const { client_id: clientId } = await register(server);
    const answer = await token(server, { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'crier-rt-nothing' });
    assert.deepEqual([answer.status, answer.body.error], [400, 'invalid_grant']);
  });
});
