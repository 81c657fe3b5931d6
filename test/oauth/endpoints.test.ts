// The OAuth endpoints before the token: discovery documents, dynamic registration, the
// authorization endpoint and the dashboard's consent endpoint, against a started Crier. What a
// client may hear of goes back to its redirect URI; what it may not (an unknown client, an
// unregistered URI) is answered to the user. And the access token's audience: POST /mcp only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { authorizationParams, authorize, consent, grantFor, mcpStatus, newPkce, REDIRECT_URI, register, registerFrom, resourceOf, token, TRUST_LOOPBACK_PROXY } from './flow.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer(TRUST_LOOPBACK_PROXY);
  org = await server.createOrg();
});
after(() => server.close());

describe('discovery', () => {
  test('the protected resource metadata, at the MCP path and at the root, names the MCP endpoint and Crier as its authorization server', async () => {
    const base = server.config.publicBaseUrl;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const answer = await server.request('GET', path);
      assert.equal(answer.status, 200, path);
      assert.deepEqual(answer.body, { resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ['header'], resource_name: 'Crier MCP server' });
    }
  });

  test('the authorization server metadata lists its endpoints, S256 only, public clients only', async () => {
    const base = server.config.publicBaseUrl;
    const { status, body } = await server.request('GET', '/.well-known/oauth-authorization-server');
    assert.equal(status, 200);
    assert.equal(body.issuer, base);
    assert.equal(body.authorization_endpoint, `${base}/oauth/authorize`);
    assert.equal(body.token_endpoint, `${base}/oauth/token`);
    assert.equal(body.registration_endpoint, `${base}/oauth/register`);
    assert.equal(body.revocation_endpoint, `${base}/oauth/revoke`);
    assert.deepEqual(body.revocation_endpoint_auth_methods_supported, ['none']);
    assert.deepEqual(body.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(body.token_endpoint_auth_methods_supported, ['none']);
    assert.deepEqual(body.grant_types_supported, ['authorization_code', 'refresh_token']);
  });

  test('none of the OAuth routes is in the API\'s OpenAPI document', async () => {
    const paths = Object.keys((await server.request('GET', '/openapi.json')).body.paths);
    assert.deepEqual(paths.filter((p) => /oauth|well-known/.test(p)), []);
  });

  test('POST /mcp without credentials: 401, the body as before, the challenge naming the metadata; /v1 keeps its plain challenge', async () => {
    const mcp = await server.request('POST', '/mcp', { body: {} });
    assert.equal(mcp.status, 401);
    assert.equal(mcp.headers.get('www-authenticate'), `Bearer resource_metadata="${server.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp"`);
    assert.deepEqual(mcp.body, { success: false, error: 'Missing API key: send "Authorization: Bearer <API_KEY>"' });
    const v1 = await server.request('GET', '/v1/posts', { key: 'crier_wrong' });
    assert.equal(v1.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(v1.body, { success: false, error: 'Invalid API key' });
  });
});

describe('registration', () => {
  test('a public client is registered with its name and redirect URIs; no secret is issued', async () => {
    const answer = await registerFrom(server, { client_name: 'Desk agent', redirect_uris: [REDIRECT_URI, 'https://agent.example/cb'] });
    assert.equal(answer.status, 201);
    assert.match(answer.body.client_id, /^crier-client-/);
    assert.equal(answer.body.client_name, 'Desk agent');
    assert.deepEqual(answer.body.redirect_uris, [REDIRECT_URI, 'https://agent.example/cb']);
    assert.equal(answer.body.token_endpoint_auth_method, 'none');
    assert.equal(answer.body.client_secret, undefined);
  });

  test('a client without a name is named after the scheme and host its browser returns to', async () => {
    const answer = await registerFrom(server, { redirect_uris: ['https://agent.example/cb'] });
    assert.equal(answer.body.client_name, 'MCP client at https://agent.example');
    const app = await registerFrom(server, { redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'] });
    assert.equal(app.body.client_name, 'MCP client at cursor://anysphere.cursor-retrieval');
  });

  test('a desktop client\'s private-use scheme (RFC 8252 §7.1) is registered as given', async () => {
    const uris = ['cursor://anysphere.cursor-retrieval/oauth/user-crier/callback', 'vscode://vscode.github-authentication/did-authenticate?windowid=1'];
    const answer = await registerFrom(server, { client_name: 'Desktop editor', redirect_uris: uris });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.redirect_uris, uris);
  });

  const refused: [string, unknown, string, RegExp][] = [
    ['a plain-http redirect URI to another host', { redirect_uris: ['http://agent.example/cb'] }, 'invalid_redirect_uri', /redirect_uris\[0\] must not be plain http to another host/],
    ['a javascript: redirect URI', { redirect_uris: [REDIRECT_URI, 'javascript:alert(document.domain)//'] }, 'invalid_redirect_uri', /redirect_uris\[1\] must not use the javascript: scheme/],
    ['a data: redirect URI', { redirect_uris: ['data:text/html,<script>alert(1)</script>'] }, 'invalid_redirect_uri', /data: scheme/],
    ['a file: redirect URI', { redirect_uris: ['file:///etc/passwd'] }, 'invalid_redirect_uri', /file: scheme/],
    ['a redirect URI with a tab hiding its scheme', { redirect_uris: ['java\tscript:alert(1)'] }, 'invalid_redirect_uri', /control characters/],
    ['no redirect URI', { client_name: 'x' }, 'invalid_redirect_uri', /non-empty array/],
    ['a confidential client', { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata', /public clients only/],
    ['the client_credentials grant', { redirect_uris: [REDIRECT_URI], grant_types: ['client_credentials'] }, 'invalid_client_metadata', /grant_types/],
    ['a name that is not text', { redirect_uris: [REDIRECT_URI], client_name: 42 }, 'invalid_client_metadata', /client_name/],
    ['a JSON array', [REDIRECT_URI], 'invalid_client_metadata', /JSON object/],
  ];
  for (const [what, body, error, description] of refused) {
    test(`${what}: 400 ${error}`, async () => {
      const answer = await registerFrom(server, body);
      assert.deepEqual([answer.status, answer.body.error], [400, error]);
      assert.match(answer.body.error_description, description);
    });
  }

  test('malformed JSON, a NUL character or a form body: a 400 in RFC 6749\'s shape, never a 500', async () => {
    const malformed = await server.request('POST', '/oauth/register', { rawBody: '{"redirect_uris":', headers: { 'content-type': 'application/json' } });
    assert.deepEqual([malformed.status, malformed.body.error], [400, 'invalid_request']);
    const nul = await server.request('POST', '/oauth/register', { body: { client_name: 'a\u0000b', redirect_uris: [REDIRECT_URI] } });
    assert.deepEqual([nul.status, nul.body.error], [400, 'invalid_request']);
    const form = await server.request('POST', '/oauth/register', { rawBody: 'redirect_uris=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.deepEqual([form.status, form.body.error], [400, 'invalid_client_metadata']);
  });
});

describe('the authorization endpoint', () => {
  test('a valid request goes on to the dashboard\'s consent page, its parameters in the fragment', async () => {
    const { client_id: clientId } = await register(server);
    const params = authorizationParams(clientId, newPkce(), server);
    const response = await authorize(server, params);
    assert.equal(response.status, 302);
    const location = response.headers.get('location')!;
    assert.ok(location.startsWith('/#/consent?'), location);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(location.slice('/#/consent?'.length))), params);
  });

  test('an unknown client or an unregistered redirect URI is answered here, never at the redirect URI', async () => {
    const { client_id: clientId } = await register(server);
    const unknown = await authorize(server, authorizationParams('crier-client-nobody', newPkce(), server));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers.get('location'), null);
    assert.equal((await unknown.json()).error, 'invalid_request');
    const elsewhere = await authorize(server, authorizationParams(clientId, newPkce(), server, { redirect_uri: 'https://attacker.example/cb' }));
    assert.equal(elsewhere.status, 400);
    assert.equal(elsewhere.headers.get('location'), null);
    assert.match((await elsewhere.json()).error_description, /redirect_uri/);
  });

  const sentBack: [string, Record<string, string>, string, RegExp][] = [
    ['PKCE plain', { code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    ['no code_challenge_method (plain by default)', { code_challenge_method: '' }, 'invalid_request', /S256/],
    ['no code_challenge', { code_challenge: '' }, 'invalid_request', /code_challenge is required/],
    ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request', /43 characters/],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type', /code/],
    ['another resource', { resource: 'https://other.example/mcp' }, 'invalid_target', /resource/],
  ];
  for (const [what, change, error, description] of sentBack) {
    test(`${what}: back to the client's redirect URI with error=${error} and its state`, async () => {
      const { client_id: clientId } = await register(server);
      const params = authorizationParams(clientId, newPkce(), server, change);
      const response = await authorize(server, Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')));
      assert.equal(response.status, 302);
      const back = new URL(response.headers.get('location')!);
      assert.equal(back.origin + back.pathname, REDIRECT_URI);
      assert.equal(back.searchParams.get('error'), error);
      assert.match(back.searchParams.get('error_description')!, description);
      assert.equal(back.searchParams.get('state'), params.state);
      assert.equal(back.searchParams.get('iss'), server.config.publicBaseUrl);
    });
  }
});

describe('the consent endpoint (the dashboard\'s page)', () => {
  test('GET shows the client\'s name, the host the browser goes back to and the organization', async () => {
    const { client_id: clientId } = await register(server, { client_name: 'Agent Smith' });
    const params = authorizationParams(clientId, newPkce(), server);
    const answer = await server.request('GET', `/v1/oauth/consent?${new URLSearchParams(params)}`, { key: org.key });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const orgName = (await server.db.query('SELECT name FROM orgs WHERE id = $1', [org.orgId])).rows[0].name;
    assert.deepEqual(answer.body.data.client, { id: clientId, name: 'Agent Smith' });
    assert.equal(answer.body.data.returnTo, 'http://127.0.0.1:33418');
    assert.equal(answer.body.data.returnKind, 'loopback');
    assert.equal(answer.body.data.organization.name, orgName);
  });

  test('a private-use redirect URI: the page names its scheme and host, the code goes there, and only that exact URI is accepted', async () => {
    const appUri = 'cursor://anysphere.cursor-retrieval/oauth/callback';
    const { client_id: clientId } = await register(server, { client_name: 'Cursor', redirect_uris: [appUri] });
    const pkce = newPkce();
    const params = authorizationParams(clientId, pkce, server, { redirect_uri: appUri });
    const shown = await server.request('GET', `/v1/oauth/consent?${new URLSearchParams(params)}`, { key: org.key });
    assert.deepEqual([shown.body.data.returnTo, shown.body.data.returnKind], ['cursor://anysphere.cursor-retrieval', 'application']);
    const back = await consent(server, org.key, params);
    assert.equal(`${back.protocol}//${back.host}${back.pathname}`, appUri);
    assert.equal(back.searchParams.get('state'), params.state);
    const exchanged = await token(server, { grant_type: 'authorization_code', client_id: clientId, code: back.searchParams.get('code')!, redirect_uri: appUri, code_verifier: pkce.verifier });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    for (const near of [`${appUri}/`, 'cursor://anysphere.cursor-retrieval:8080/oauth/callback', 'cursor://evil.example/oauth/callback']) {
      const response = await authorize(server, authorizationParams(clientId, newPkce(), server, { redirect_uri: near }));
      assert.equal(response.status, 400, near);
      assert.equal(response.headers.get('location'), null, near);
    }
  });

  test('approving: the redirect URI with a code, the state and the issuer', async () => {
    const { client_id: clientId } = await register(server);
    const params = authorizationParams(clientId, newPkce(), server);
    const back = await consent(server, org.key, params);
    assert.match(back.searchParams.get('code')!, /^crier-ac-/);
    assert.equal(back.searchParams.get('state'), params.state);
    assert.equal(back.searchParams.get('iss'), server.config.publicBaseUrl);
  });

  test('denying: the redirect URI with error=access_denied and the state; no code, no grant', async () => {
    const { client_id: clientId } = await register(server, { client_name: 'Denied agent' });
    const params = authorizationParams(clientId, newPkce(), server);
    const back = await consent(server, org.key, params, false);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), params.state);
    assert.equal(back.searchParams.get('code'), null);
    const keys = (await server.request('GET', '/v1/api-keys?limit=100', { key: org.key })).body.data;
    assert.equal(keys.some((k: any) => k.name === 'MCP: Denied agent'), false);
  });

  test('without an API key: 401; with a fixed-quota key: 403 (it must not mint a grant without a quota)', async () => {
    const { client_id: clientId } = await register(server);
    const params = authorizationParams(clientId, newPkce(), server);
    assert.equal((await server.request('POST', '/v1/oauth/consent', { body: { ...params, approve: true } })).status, 401);
    const quotaKey = (await server.request('POST', '/v1/api-keys', { key: org.key, body: { name: 'trial', fixedQuota: 100 } })).body.data.key;
    const refused = await server.request('POST', '/v1/oauth/consent', { key: quotaKey, body: { ...params, approve: true } });
    assert.deepEqual([refused.status, refused.body.code], [403, 'forbidden']);
  });

  test('an unregistered redirect URI or an unknown client: 400 naming the parameter, nothing to redirect to', async () => {
    const { client_id: clientId } = await register(server);
    const wrong = await server.request('POST', '/v1/oauth/consent', { key: org.key, body: { ...authorizationParams(clientId, newPkce(), server, { redirect_uri: 'https://attacker.example/cb' }), approve: true } });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.details.map((d: any) => d.field), ['redirect_uri']);
    const unknown = await server.request('GET', `/v1/oauth/consent?${new URLSearchParams(authorizationParams('crier-client-nobody', newPkce(), server))}`, { key: org.key });
    assert.deepEqual([unknown.status, unknown.body.details[0].field], [400, 'client_id']);
  });
});

describe('the access token\'s audience and scope', () => {
  test('accepted at POST /mcp; refused at a /v1 route called directly, exactly as an invalid API key', async () => {
    const grant = await grantFor(server, org.key);
    assert.equal(await mcpStatus(server, grant.accessToken), 200);
    const direct = await server.request('GET', '/v1/social-accounts', { key: grant.accessToken });
    assert.equal(direct.status, 401);
    assert.deepEqual(direct.body, { success: false, error: 'Invalid API key' });
    const forged = await server.request('GET', '/v1/social-accounts', { key: grant.accessToken, headers: { 'x-crier-mcp-forward': 'guess' } });
    assert.equal(forged.status, 401);
  });

  test('the grant is the consenting organization\'s key record: listed as "MCP: <client>", used, revocable', async () => {
    const grant = await grantFor(server, org.key);
    const other = await server.createOrg();
    const listed = (await server.request('GET', '/v1/api-keys?limit=100', { key: org.key })).body.data;
    const record = listed.find((k: any) => k.name === 'MCP: Test agent' && k.revokedAt === null);
    assert.ok(record, JSON.stringify(listed));
    assert.equal(record.prefix, 'oauth-grant');
    const theirs = (await server.request('GET', '/v1/api-keys?limit=100', { key: other.key })).body.data;
    assert.equal(theirs.some((k: any) => k.name.startsWith('MCP: ')), false);
    // Another organization cannot revoke it; its own can, and the token stops at once.
    assert.equal((await server.request('DELETE', `/v1/api-keys/${record.id}`, { key: other.key })).status, 404);
    assert.equal(await mcpStatus(server, grant.accessToken), 200);
    assert.equal((await server.request('DELETE', `/v1/api-keys/${record.id}`, { key: org.key })).status, 200);
    assert.equal(await mcpStatus(server, grant.accessToken), 401);
  });

  test('the resource given at the authorization endpoint must be the MCP endpoint, a trailing slash aside', async () => {
    const { client_id: clientId } = await register(server);
    const response = await authorize(server, authorizationParams(clientId, newPkce(), server, { resource: `${resourceOf(server)}/` }));
    assert.ok(response.headers.get('location')!.startsWith('/#/consent?'));
  });
});

describe('cross-origin requests (browser-based MCP clients)', () => {
  const ORIGIN = 'https://inspector.example';
  const preflight = (path: string, method: string, headers: string) =>
    fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers } });
  const listed = (value: string | null) => (value ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);

  const open: [string, string, string][] = [
    ['/.well-known/oauth-protected-resource/mcp', 'GET', 'mcp-protocol-version'],
    ['/.well-known/oauth-authorization-server', 'GET', 'mcp-protocol-version'],
    ['/oauth/register', 'POST', 'content-type'],
    ['/oauth/token', 'POST', 'content-type'],
    ['/oauth/revoke', 'POST', 'content-type'],
    ['/mcp', 'POST', 'authorization, content-type, mcp-protocol-version, mcp-session-id'],
  ];
  for (const [path, method, headers] of open) {
    test(`a preflight of ${method} ${path} is allowed from any origin, with MCP's headers`, async () => {
      const response = await preflight(path, method, headers);
      assert.equal(response.status, 204);
      assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
      assert.ok(listed(response.headers.get('access-control-allow-methods')).includes(method.toLowerCase()));
      const allowed = listed(response.headers.get('access-control-allow-headers'));
      for (const header of ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id']) assert.ok(allowed.includes(header), `${header} in ${allowed}`);
      assert.equal(response.headers.get('access-control-allow-credentials'), null, 'no cookies are involved');
    });
  }

  test('POST /mcp from another origin: the 401 and its WWW-Authenticate are readable by the page, as is mcp-session-id', async () => {
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: '{}' });
    await response.body?.cancel();
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
    const exposed = listed(response.headers.get('access-control-expose-headers'));
    for (const header of ['www-authenticate', 'mcp-session-id']) assert.ok(exposed.includes(header), `${header} in ${exposed}`);
  });

  test('the whole flow but consent from a browser origin: discovery, registration, token, MCP and revocation answers all carry the origin', async () => {
    const withOrigin = (init: RequestInit = {}) => ({ ...init, headers: { ...init.headers as Record<string, string>, origin: ORIGIN } });
    const grant = await grantFor(server, org.key);
    const answers = [
      await fetch(`${server.url}/.well-known/oauth-authorization-server`, withOrigin()),
      await fetch(`${server.url}/oauth/register`, withOrigin({ method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.200.0.1' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) })),
      await fetch(`${server.url}/oauth/token`, withOrigin({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', client_id: grant.clientId, refresh_token: grant.refreshToken }) })),
      await fetch(`${server.url}/mcp`, withOrigin({ method: 'POST', headers: { authorization: `Bearer ${grant.accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) })),
      await fetch(`${server.url}/oauth/revoke`, withOrigin({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: grant.clientId, token: grant.accessToken }) })),
    ];
    for (const response of answers) {
      await response.body?.cancel();
      assert.ok(response.ok, `${response.url}: ${response.status}`);
      assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN, response.url);
    }
  });

  test('never on the authorization endpoint or the consent endpoint: no preflight is allowed, no answer is readable', async () => {
    const { client_id: clientId } = await register(server);
    const params = new URLSearchParams(authorizationParams(clientId, newPkce(), server));
    for (const [path, method] of [[`/oauth/authorize?${params}`, 'GET'], [`/v1/oauth/consent?${params}`, 'GET'], ['/v1/oauth/consent', 'POST']] as const) {
      const response = await preflight(path, method, 'authorization, content-type');
      await response.body?.cancel();
      assert.equal(response.headers.get('access-control-allow-origin'), null, `preflight ${method} ${path}`);
      assert.equal(response.headers.get('access-control-allow-headers'), null, `preflight ${method} ${path}`);
    }
    const authorizeAnswer = await fetch(`${server.url}/oauth/authorize?${params}`, { headers: { origin: ORIGIN }, redirect: 'manual' });
    assert.equal(authorizeAnswer.status, 302);
    assert.equal(authorizeAnswer.headers.get('access-control-allow-origin'), null);
    const consentAnswer = await fetch(`${server.url}/v1/oauth/consent?${params}`, { headers: { origin: ORIGIN, authorization: `Bearer ${org.key}` } });
    assert.equal(consentAnswer.status, 200, 'the request itself is served (a same-origin page makes it)');
    await consentAnswer.body?.cancel();
    assert.equal(consentAnswer.headers.get('access-control-allow-origin'), null);
    // The rest of /v1 keeps its cross-origin access.
    const posts = await fetch(`${server.url}/v1/posts`, { headers: { origin: ORIGIN, authorization: `Bearer ${org.key}` } });
    await posts.body?.cancel();
    assert.equal(posts.headers.get('access-control-allow-origin'), ORIGIN);
  });
});
