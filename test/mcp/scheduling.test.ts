// POST /mcp with the official MCP client against a started Crier: an agent gives an account a queue,
// schedules a post into its next free slot, and makes a post recur, each through the tools.
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
  account = await server.addAccount(org, 'x', 'mcp_scheduler');
  client = new Client({ name: 'crier-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.key}` } } }));
});
after(async () => {
  await client.close();
  await server.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as any;
};

test('create_queue, then create_post with next-free-slot lands in the first slot preview_queue_slots shows', async () => {
  const queue = await call('create_queue', { socialAccountId: account.id, timeZone: 'America/New_York', slots: [{ day: 'tuesday', time: '10:00' }] });
  const before = await call('preview_queue_slots', { id: queue.data.id, count: 1 });
  const created = await call('create_post', { accounts: [account.id], content: 'queued by an agent', scheduledAt: 'next-free-slot' });
  assert.equal(created.post.scheduledAt, before.data[0].at);
  const listed = await call('list_queues', {});
  assert.ok(listed.data.some((q: { id: string }) => q.id === queue.data.id));
});

test('create_recurrence makes a series that list_recurrences shows, with its next occurrence', async () => {
  const created = await call('create_recurrence', { accounts: [account.id], content: 'every other day', every: { days: 2 }, count: 3 });
  const listed = await call('list_recurrences', {});
  const series = listed.data.find((r: { id: string }) => r.id === created.data.id);
  assert.equal(series.status, 'active');
  assert.equal(series.count, 3);
});
