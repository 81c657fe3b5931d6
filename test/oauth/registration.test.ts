// What keeps open registration (POST /oauth/register, no credentials) from filling the database: at
// most 20 registrations an hour from one client address, then 429 with Retry-After in RFC 7591's
// error shape; and a client that never obtained a grant is removed a day after it registered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { authorizationParams, authorize, consent, grantFor, newClientAddress, newPkce, REDIRECT_URI, register, registerFrom, token, TRUST_LOOPBACK_PROXY } from './flow.ts';

const METADATA = { client_name: 'Registration test', redirect_uris: [REDIRECT_URI] };

describe('the limit per client address', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(TRUST_LOOPBACK_PROXY);
  });
  after(() => server.close());

  const clientCount = async () => Number((await server.db.query('SELECT count(*) FROM oauth_clients')).rows[0].count);

  test('20 registrations an hour from one address, refused ones counted; the 21st is 429 with Retry-After and creates nothing; another address still registers', async () => {
    const address = newClientAddress();
    assert.equal((await registerFrom(server, { redirect_uris: ['javascript:alert(1)'] }, address)).status, 400);
    for (let i = 0; i < 19; i += 1) assert.equal((await registerFrom(server, METADATA, address)).status, 201, `registration ${i + 2}`);
    const before = await clientCount();
    const refused = await registerFrom(server, METADATA, address);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'too_many_requests');
    assert.match(refused.body.error_description, /At most 20 registrations an hour from one address; retry in \d+ s/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    assert.equal(await clientCount(), before, 'the refused registration stored nothing');
    assert.equal((await registerFrom(server, METADATA, newClientAddress())).status, 201);
    assert.equal((await registerFrom(server, METADATA, address)).status, 429, 'still refused');
  });

  test('an IPv6 client is counted by its /64 network: new addresses in it do not reset the count, another network is apart', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i += 1) statuses.push((await registerFrom(server, METADATA, `2001:db8:7:1::${i.toString(16)}`)).status);
    assert.deepEqual(statuses, [...Array(20).fill(201), 429]);
    assert.equal((await registerFrom(server, METADATA, '2001:db8:7:1:ffff:ffff:ffff:ffff')).status, 429, 'the same /64');
    assert.equal((await registerFrom(server, METADATA, '2001:db8:7:2::1')).status, 201, 'the next /64');
  });
});

test('without a trusted proxy, X-Forwarded-For does not give a client another address to register from', async () => {
  const server = await startTestServer();
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await registerFrom(server, METADATA)).status);
    assert.deepEqual(statuses, [...Array(20).fill(201), 429]);
  } finally {
    await server.close();
  }
});

describe('clients that never obtained a grant', () => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(TRUST_LOOPBACK_PROXY);
    org = await server.createOrg();
  });
  after(() => server.close());

  const registeredHoursAgo = (clientId: string, hours: number) =>
    server.db.query("UPDATE oauth_clients SET created_at = now() - make_interval(hours => $2) WHERE client_id = $1", [clientId, hours]);
  const exists = async (clientId: string) => (await server.db.query('SELECT 1 FROM oauth_clients WHERE client_id = $1', [clientId])).rowCount === 1;

  test('are removed as the next client registers once a day old; clients with a grant, with a code to exchange, or younger stay', async () => {
    const { client_id: unused } = await register(server, { client_name: 'Abandoned' });
    const { client_id: young } = await register(server, { client_name: 'Young' });
    const granted = (await grantFor(server, org.key)).clientId;
    const { client_id: pending } = await register(server, { client_name: 'Pending' });
    const pendingPkce = newPkce();
    const approved = await consent(server, org.key, authorizationParams(pending, pendingPkce, server));
    await registeredHoursAgo(unused, 25);
    await registeredHoursAgo(young, 23);
    await registeredHoursAgo(granted, 25 * 30);
    await registeredHoursAgo(pending, 25);

    await register(server, { client_name: 'Newcomer' });
    assert.deepEqual(
      { unused: await exists(unused), young: await exists(young), granted: await exists(granted), pending: await exists(pending) },
      { unused: false, young: true, granted: true, pending: true },
    );
    // The pending client's code is still good: its exchange succeeds after the clean-up.
    const exchanged = await token(server, { grant_type: 'authorization_code', client_id: pending, code: approved.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: pendingPkce.verifier });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
  });

  test('a removed client is told it is unknown: 400 at the authorization endpoint, invalid_client at the token endpoint', async () => {
    const { client_id: clientId } = await register(server, { client_name: 'Gone' });
    await registeredHoursAgo(clientId, 48);
    await register(server);
    const response = await authorize(server, authorizationParams(clientId, newPkce(), server));
    assert.equal(response.status, 400);
    assert.match((await response.json()).error_description, /no registered client/);
    const refreshed = await token(server, { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'crier-rt-x' });
    assert.deepEqual([refreshed.status, refreshed.body.error], [401, 'invalid_client']);
  });
});
