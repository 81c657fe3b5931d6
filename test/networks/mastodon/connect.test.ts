// Connecting a Mastodon account with its instance's address and an access token over real HTTP: POST
// /v1/social-accounts/mastodon {instanceUrl, accessToken}, validated by verify_credentials on the
// emulated instance, the token stored sealed; each refusal a 400 naming its field, and an instance at a
// private address refused by the SSRF guard before anything is sent there.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startMastodonEmulator, type MastodonEmulator } from '../../../emulators/mastodon/server.ts';
import { openSecret } from '../../../src/accounts/secrets.ts';
import { decodeId } from '../../../src/core/ids.ts';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/harness.ts';

let masto: MastodonEmulator;
let server: TestServer;
let org: TestOrg;
let internal: Server;
let internalUrl: string;
let internalConnections = 0;
let n = 0;

before(async () => {
  masto = await startMastodonEmulator();
  server = await startTestServer({ CRIER_MASTODON_BASE_URL: masto.url });
  org = await server.createOrg();
  // A plain-http loopback service (what an SSRF would aim at): it must never be dialled.
  internal = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"1","acct":"secret"}'));
  internal.on('connection', () => internalConnections++);
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
});
after(async () => {
  await server.close();
  await masto.close();
  await new Promise<void>((resolve) => internal.close(() => resolve()));
});

const connect = (body: Record<string, unknown>) => server.request('POST', '/v1/social-accounts/mastodon', { key: org.key, body });
const account = () => masto.addAccount({ username: `connect${++n}` });

describe('connecting a Mastodon account with an access token', () => {
  test('the account is acct@host, its unique id host:id, the instance its service URL, the token sealed', async () => {
    const remote = account();
    const host = new URL(masto.url).host;
    const res = await connect({ instanceUrl: `${masto.url}/`, accessToken: remote.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      { network: res.body.data.network, username: res.body.data.username, uid: res.body.data.network_unique_id },
      { network: 'mastodon', username: `${remote.username}@${host}`, uid: `${host}:${remote.id}` },
    );
    const rawId = decodeId(res.body.data.id)!;
    const row = (await server.db.query('SELECT credential_enc, service_url FROM social_accounts WHERE id = $1', [rawId])).rows[0];
    assert.equal(openSecret(server.box, rawId, 'credential', row.credential_enc), remote.token);
    assert.equal(row.service_url, masto.url);
  });

  test('a token the instance does not know: 400 on accessToken, nothing stored', async () => {
    const res = await connect({ instanceUrl: masto.url, accessToken: 'not-a-token-of-this-instance' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.code, 'mastodon_token_refused');
    assert.equal(res.body.details[0].field, 'accessToken');
    assert.match(res.body.details[0].message, /The access token is invalid/);
  });

  test('a revoked token: 400 on accessToken', async () => {
    const remote = account();
    masto.revokeToken(remote.id);
    const res = await connect({ instanceUrl: masto.url, accessToken: remote.token });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.details[0].message, /The access token was revoked/);
  });

  test('malformed fields: 400 with a detail for each', async () => {
    const res = await connect({ instanceUrl: 'ftp://instance.example', accessToken: 'has spaces in it' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body.details.map((d: { field: string }) => d.field).sort(), ['accessToken', 'instanceUrl']);
  });

  test('an instance at a private address: 400 on instanceUrl from the SSRF guard, the address never dialled', async () => {
    for (const instanceUrl of [internalUrl, 'https://10.0.0.1', 'https://[::1]:8443']) {
      const res = await connect({ instanceUrl, accessToken: 'some-token' });
      assert.equal(res.status, 400, `${instanceUrl}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'mastodon_instance_refused');
      assert.equal(res.body.details[0].field, 'instanceUrl');
      assert.match(res.body.details[0].message, /only public https addresses are allowed/);
    }
    assert.equal(internalConnections, 0, 'the internal service was never contacted');
    assert.equal((await server.db.query("SELECT 1 FROM social_accounts WHERE network = 'mastodon' AND username LIKE '%secret%'")).rowCount, 0);
  });
});

describe('the configured instance named by its domain (the sandbox shows sandbox@sandbox.mastodon.test)', () => {
  let named: MastodonEmulator;
  let namedServer: TestServer;
  let namedOrg: TestOrg;

  before(async () => {
    named = await startMastodonEmulator({ domain: 'social.example' });
    namedServer = await startTestServer({ CRIER_MASTODON_BASE_URL: named.url });
    namedOrg = await namedServer.createOrg();
  });
  after(async () => {
    await namedServer.close();
    await named.close();
  });

  test('a token connect and an OAuth connect given "social.example" reach the configured instance; another domain is judged by the guard', async () => {
    const { token } = named.addAccount({ username: 'alice' });
    const connected = await namedServer.request('POST', '/v1/social-accounts/mastodon', { key: namedOrg.key, body: { instanceUrl: 'social.example', accessToken: token } });
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.equal(connected.body.data.username, 'alice@social.example');
    const auth = await namedServer.request('POST', '/v1/social-networks/mastodon/auth-url', { key: namedOrg.key, body: { instance_url: 'https://social.example/' } });
    assert.equal(auth.status, 200, JSON.stringify(auth.body));
    assert.equal(new URL(auth.body.data.auth_url).origin, named.url);
    const elsewhere = await namedServer.request('POST', '/v1/social-networks/mastodon/auth-url', { key: namedOrg.key, body: { instance_url: 'other.invalid' } });
    assert.equal(elsewhere.status, 400, JSON.stringify(elsewhere.body));
    assert.equal(elsewhere.body.details[0].field, 'instance_url');
  });
});
