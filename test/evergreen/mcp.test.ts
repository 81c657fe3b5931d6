// The evergreen tools over POST /mcp with the official MCP client: an agent makes a collection with
// create_evergreen_collection and finds it with list_evergreen_collections; a bad item comes back as
// the tool's error with the API's per-field details.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let account: TestAccount;
let client: Client;
before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  account = await server.addAccount(org, 'x', 'mcp_evergreen');
  client = new Client({ name: 'crier-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.key}` } } }));
});
after(async () => {
  await client.close();
  await server.close();
});

test('create_evergreen_collection makes a collection that list_evergreen_collections shows', async () => {
  const result = await client.callTool({
    name: 'create_evergreen_collection',
    arguments: { name: 'Agent picks', accounts: [account.id], every: { days: 1 }, minGapDays: 7, items: [{ content: 'An old favourite', variations: [{ content: 'An old favourite, reworded' }] }] },
  });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  const created = (result.structuredContent as any).data;
  assert.equal(created.items[0].content, 'An old favourite');
  const listed = await client.callTool({ name: 'list_evergreen_collections', arguments: {} });
  const found = (listed.structuredContent as any).data.find((c: { id: string }) => c.id === created.id);
  assert.deepEqual([found.name, found.minGapDays, found.itemCount, found.every], ['Agent picks', 7, 1, { days: 1, hours: 0 }]);
});

test('a bad item is the tool\'s error, with the field to fix', async () => {
  const result = await client.callTool({ name: 'create_evergreen_collection', arguments: { name: 'Bad', accounts: [account.id], queue: true, items: [{ content: '' }] } });
  assert.equal(result.isError, true);
  assert.match(JSON.stringify(result.content), /items\[0\]\.content/);
});
