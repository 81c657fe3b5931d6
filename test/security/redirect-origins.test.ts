// Where a connect sends the user afterwards (`redirect_uri`, with the connection's session): any
// http(s) URL the organization's key chooses by default; with CRIER_REDIRECT_ORIGINS, only those
// origins and Crier's own (the dashboard), anything else a 400 naming the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';

const authUrl = (server: TestServer, org: TestOrg, redirect_uri: string) =>
  server.request('POST', '/v1/social-networks/linkedin/auth-url', { key: org.key, body: { redirect_uri } });

async function orgWithApp(server: TestServer): Promise<TestOrg> {
  const org = await server.createOrg();
  const app = await server.request('POST', '/v1/social-networks', { key: org.key, body: { network: 'linkedin', client_key: 'crier-test-app', client_secret: 'crier-test-secret' } });
  assert.equal(app.status, 201, JSON.stringify(app.body));
  return org;
}

describe('with CRIER_REDIRECT_ORIGINS', () => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer({ PUBLIC_BASE_URL: 'https://crier.example.com', CRIER_REDIRECT_ORIGINS: 'https://app.example.com, http://localhost:5173/' });
    org = await orgWithApp(server);
  });
  after(() => server.close());

  test('a listed origin, or Crier\'s own, is accepted', async () => {
    for (const uri of ['https://app.example.com/connected?x=1', 'http://localhost:5173/cb', 'https://crier.example.com/#/accounts']) {
      const res = await authUrl(server, org, uri);
      assert.equal(res.status, 200, `${uri}: ${JSON.stringify(res.body)}`);
    }
  });

  test('another origin (another host, scheme or port) is a 400 naming redirect_uri', async () => {
    for (const uri of ['https://evil.example.net/steal', 'http://app.example.com/connected', 'https://app.example.com:8443/', 'https://app.example.com.evil.net/']) {
      const res = await authUrl(server, org, uri);
      assert.equal(res.status, 400, uri);
      assert.deepEqual(res.body.details.map((d: { field: string }) => d.field), ['redirect_uri'], uri);
      assert.match(res.body.details[0].message, /CRIER_REDIRECT_ORIGINS/);
    }
  });
});

describe('without it', () => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer();
    org = await orgWithApp(server);
  });
  after(() => server.close());

  test('any http(s) URL is accepted, as before', async () => {
    assert.equal((await authUrl(server, org, 'https://anywhere.example.net/cb')).status, 200);
    assert.equal((await authUrl(server, org, 'ftp://anywhere.example.net/cb')).status, 400);
  });
});

test('CRIER_REDIRECT_ORIGINS takes origins only: a path or another scheme stops the start', () => {
  assert.throws(() => loadConfig({ CRIER_REDIRECT_ORIGINS: 'https://app.example.com/callback' }, NETWORK_LIST), /CRIER_REDIRECT_ORIGINS must be http\(s\) origins.*"https:\/\/app.example.com\/callback"/);
  assert.throws(() => loadConfig({ CRIER_REDIRECT_ORIGINS: 'ftp://files.example.com' }, NETWORK_LIST), /CRIER_REDIRECT_ORIGINS/);
  assert.deepEqual(loadConfig({ CRIER_REDIRECT_ORIGINS: 'https://App.Example.com/' }, NETWORK_LIST).redirectOrigins, ['https://app.example.com']);
  assert.equal(loadConfig({}, NETWORK_LIST).redirectOrigins, undefined);
});
