// validate_post: the API's dry run (POST /v1/posts?dry_run=true) through MCP. A verdict per
// destination, the create's 400 as a tool error, and nothing stored either way.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let x: TestAccount;
let client: Client;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  x = await server.addAccount(org, 'x', 'alice_x');
  client = new Client({ name: 'crier-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.key}` } } }));
});
after(async () => {
  await client.close();
  await server.close();
});

test('validate_post answers a verdict per destination and stores nothing', async () => {
  const result = await client.callTool({ name: 'validate_post', arguments: { accounts: [x.id], content: 'Checked, not posted' } });
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  const answer = result.structuredContent as any;
  assert.equal(answer.dryRun, true);
  assert.deepEqual(answer.destinations.map((d: any) => [d.accountId, d.ok]), [[x.id, true]]);
  assert.equal(await countRows(server.db, 'posts', org.orgId), 0);
});

test('validate_post of an invalid post is a tool error with the API\'s details, and stores nothing', async () => {
  const result = await client.callTool({ name: 'validate_post', arguments: { accounts: [x.id], content: 'x', scheduledAt: 'soon' } });
  assert.equal(result.isError, true);
  assert.equal((result.structuredContent as any).status, 400);
  assert.match(JSON.stringify((result.structuredContent as any).details), /scheduledAt/);
  assert.equal(await countRows(server.db, 'posts', org.orgId), 0);
});

test('validate_post does not offer dry_run as an input: it is always a dry run', async () => {
  const { tools } = await client.listTools();
  const validate = tools.find((t) => t.name === 'validate_post');
  assert.ok(validate, 'validate_post is offered: POST /v1/posts declares its dry_run query parameter');
  assert.equal('dry_run' in (validate.inputSchema.properties ?? {}), false);
  assert.deepEqual(validate.inputSchema.required, ['accounts']);
});
