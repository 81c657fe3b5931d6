// POST /oauth/revoke (RFC 7009) against a started Crier: how an MCP client signs out. A refresh
// token ends its grant (every token of it, and the key record on the keys page); an access token
// ends itself alone. A token Crier does not know is answered 200 and changes nothing, an API key
// included; another client's token is refused and keeps working.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { grantFor, mcpStatus, register, revoke, token, TRUST_LOOPBACK_PROXY } from './flow.ts';

let server: TestServer;
let org: TestOrg;

before(async () => {
  server = await startTestServer(TRUST_LOOPBACK_PROXY);
  org = await server.createOrg();
});
after(() => server.close());

const refresh = (clientId: string, refreshToken: string) => token(server, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
const grantRecords = async () => (await server.request('GET', '/v1/api-keys?limit=100', { key: org.key })).body.data.filter((k: any) => k.name.startsWith('MCP: '));

test('revoking the refresh token ends the grant: its access token, its refresh token and its key record', async () => {
  const grant = await grantFor(server, org.key);
  const before = await grantRecords();
  const answer = await revoke(server, { client_id: grant.clientId, token: grant.refreshToken, token_type_hint: 'refresh_token' });
  assert.deepEqual([answer.status, answer.text], [200, '']);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.equal(await mcpStatus(server, grant.accessToken), 401);
  const again = await refresh(grant.clientId, grant.refreshToken);
  assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
  const revoked = (await grantRecords()).filter((k: any) => k.revokedAt !== null && !before.some((b: any) => b.id === k.id && b.revokedAt !== null));
  assert.equal(revoked.length, 1, 'exactly this grant\'s key record is revoked');
});

test('revoking the access token ends that token only: the refresh token gives a new one that works', async () => {
  const grant = await grantFor(server, org.key);
  assert.equal(await mcpStatus(server, grant.accessToken), 200);
  // A wrong hint does not matter (RFC 7009 §2.1: the server looks further).
  assert.equal((await revoke(server, { client_id: grant.clientId, token: grant.accessToken, token_type_hint: 'refresh_token' })).status, 200);
  assert.equal(await mcpStatus(server, grant.accessToken), 401);
  const renewed = await refresh(grant.clientId, grant.refreshToken);
  assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
  assert.equal(await mcpStatus(server, renewed.body.access_token), 200);
});

test('a token Crier does not know is answered 200 and nothing changes; an API key given as the token stays valid', async () => {
  const grant = await grantFor(server, org.key);
  for (const unknown of ['crier-rt-not-a-real-token', 'random text', org.key]) {
    const answer = await revoke(server, { client_id: grant.clientId, token: unknown });
    assert.equal(answer.status, 200, unknown);
  }
  assert.equal((await server.request('GET', '/v1/social-accounts', { key: org.key })).status, 200, 'the API key still works');
  assert.equal(await mcpStatus(server, grant.accessToken), 200, 'the grant still works');
});

test('another client\'s token is refused with invalid_grant and keeps working', async () => {
  const grant = await grantFor(server, org.key);
  const { client_id: otherClient } = await register(server, { client_name: 'Other agent' });
  for (const theirs of [grant.accessToken, grant.refreshToken]) {
    const answer = await revoke(server, { client_id: otherClient, token: theirs });
    assert.equal(answer.status, 400);
    assert.equal(JSON.parse(answer.text).error, 'invalid_grant');
  }
  assert.equal(await mcpStatus(server, grant.accessToken), 200);
  assert.equal((await refresh(grant.clientId, grant.refreshToken)).status, 200);
});

test('refusals in RFC 6749\'s shape: an unknown client 401, a missing token or client_id, a repeated parameter, a JSON body 400', async () => {
  const grant = await grantFor(server, org.key);
  const unknown = await revoke(server, { client_id: 'crier-client-nobody', token: grant.refreshToken });
  assert.deepEqual([unknown.status, JSON.parse(unknown.text).error], [401, 'invalid_client']);
  for (const form of [{ client_id: grant.clientId }, { token: grant.refreshToken }] as Record<string, string>[]) {
    const answer = await revoke(server, form);
    assert.deepEqual([answer.status, JSON.parse(answer.text).error], [400, 'invalid_request'], JSON.stringify(form));
  }
  const twice = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `client_id=${grant.clientId}&token=a&token=b` });
  assert.deepEqual([twice.status, (await twice.json()).error], [400, 'invalid_request']);
  const json = await server.request('POST', '/oauth/revoke', { body: { client_id: grant.clientId, token: grant.refreshToken } });
  assert.deepEqual([json.status, json.body?.error], [400, 'invalid_request'], JSON.stringify(json.body));
  assert.equal(await mcpStatus(server, grant.accessToken), 200, 'no refused request revoked anything');
});
