// A Bluesky account's PDS address comes from its DID document, which the account's owner controls:
// Crier must not be made to send tokens or posts to an internal address through it, at connect or at
// publish, and what such a server answers must not come back in a post's error. Each test has a
// loopback server that records whether anything reached it and answers with text that must stay out.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { TestOrg } from '../../helpers/harness.ts';
import { startPublishingStack, type PublishingStack } from '../../helpers/publishing.ts';

const SECRET = 'internal-service-says-db-password-is-hunter2';
const APP_PASSWORD = 'abcd-efgh-ijkl-mnop';

let stack: PublishingStack;
let org: TestOrg;
let internal: { url: string; connections: number; close(): Promise<void> };
let counter = 0;

/** A plain-http loopback service (what an SSRF would aim at): counts connections, answers an error with its secrets. */
async function startInternalService(): Promise<typeof internal> {
  let connections = 0;
  const server: Server = createServer((_req, res) => {
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'InvalidRequest', message: SECRET }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

before(async () => {
  stack = await startPublishingStack();
  org = await stack.server.createOrg();
  internal = await startInternalService();
});
after(async () => {
  await stack.close();
  await internal.close();
});

const handle = () => `pds${++counter}.test`;

async function publish(accountId: string, content: string) {
  const res = await stack.server.request('POST', '/v1/posts', { key: org.key, body: { accounts: [accountId], content } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (await stack.waitForPost(org, res.body.post.id)).socialAccounts[0];
}

describe("a Bluesky account's PDS address goes through the SSRF guard", () => {
  test('connect: a DID document naming a loopback http PDS is a 400 on handle; nothing stored, nothing sent there', async () => {
    const name = handle();
    stack.bsky.addAccount({ handle: name, password: 'main', appPasswords: [APP_PASSWORD], pdsEndpoint: internal.url });
    const res = await stack.server.request('POST', '/v1/social-accounts/bluesky', { key: org.key, body: { handle: name, appPassword: APP_PASSWORD } });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.success, false);
    assert.equal(res.body.code, 'bluesky_pds_refused');
    assert.equal(res.body.details[0].field, 'handle');
    assert.match(res.body.details[0].message, /only https/);
    assert.equal((await stack.server.db.query('SELECT 1 FROM social_accounts WHERE username = $1', [name])).rowCount, 0);
    assert.equal(internal.connections, 0, 'the internal service was never contacted');
  });

  test('publish: an account already stored with a loopback http PDS fails with a short reason; nothing sent there', async () => {
    const name = handle();
    const { did } = stack.bsky.addAccount({ handle: name, password: 'main', appPasswords: [APP_PASSWORD] });
    const account = await stack.server.addAccount(org, 'bluesky', name, {
      networkUniqueId: did, serviceUrl: internal.url, credential: APP_PASSWORD, accessToken: 'stored-access', refreshToken: 'stored-refresh',
    });
    const target = await publish(account.id, 'to an internal address');
    assert.equal(target.status, 'failed');
    assert.match(target.error, /^bluesky: the account's PDS address was refused \(only https URLs are allowed \(got http:\)\)/);
    assert.ok(!target.error.includes(SECRET));
    assert.equal(internal.connections, 0, 'neither the tokens nor the app password went there');
  });

  test('publish: a DID document that moves the account to a loopback PDS after connecting; the post goes nowhere', async () => {
    const account = await stack.addBlueskyAccount(org, handle());
    stack.bsky.setPdsEndpoint(account.did, internal.url);
    const target = await publish(account.id, 'moved away');
    assert.equal(target.status, 'failed');
    assert.match(target.error, /^bluesky: the account's PDS address was refused \(only https URLs are allowed/);
    assert.equal(internal.connections, 0);
    assert.equal(stack.bsky.records(account.did).length, 0);
  });

  test("publish: an https PDS the guard lets through answers an error: only its name and status are shown, not its text", async () => {
    // The stack's HTTPS server is trusted and loopback is allowed in tests: it stands for a public PDS.
    const answer = (_req: unknown, res: import('node:http').ServerResponse) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'InvalidRequest', message: SECRET }));
    stack.media.route('/xrpc/com.atproto.server.refreshSession', answer);
    stack.media.route('/xrpc/com.atproto.server.createSession', answer);
    const name = handle();
    const { did } = stack.bsky.addAccount({ handle: name, password: 'main', appPasswords: [APP_PASSWORD] });
    const account = await stack.server.addAccount(org, 'bluesky', name, {
      networkUniqueId: did, serviceUrl: stack.media.url, credential: APP_PASSWORD, accessToken: 'stored-access', refreshToken: 'stored-refresh',
    });
    const target = await publish(account.id, 'to a chatty PDS');
    assert.equal(target.status, 'failed');
    assert.equal(target.error, "bluesky: InvalidRequest (the account's PDS answered HTTP 400)");
    assert.ok(stack.media.requests.some((r) => r.path === '/xrpc/com.atproto.server.createSession'), 'that PDS was called');
  });
});
