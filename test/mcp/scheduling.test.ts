// POST /mcp with the official MCP client against a started Crier: an agent gives an account a queue,
// schedules a post into its next free slot, makes a post recur, and approves and rejects posts
// waiting for approval, each through the tools.
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

test('list_posts with status pending_approval finds the posts waiting; approve_post queues one, reject_post turns one down with its reason', async () => {
  assert.equal((await server.request('PATCH', '/v1/settings', { key: org.key, body: { requireApproval: true } })).status, 200);
  const later = new Date(Date.now() + 86_400_000).toISOString();
  const first = await call('create_post', { accounts: [account.id], content: 'for an agent to approve', scheduledAt: later });
  const second = await call('create_post', { accounts: [account.id], content: 'for an agent to reject', scheduledAt: later });
  const waiting = await call('list_posts', { status: 'pending_approval' });
  assert.deepEqual(waiting.posts.map((p: { id: string }) => p.id).sort(), [first.post.id, second.post.id].sort());
  const approved = await call('approve_post', { id: first.post.id });
  assert.deepEqual([approved.post.approval.status, approved.post.socialAccounts[0].status], ['approved', 'pending']);
  const rejected = await call('reject_post', { id: second.post.id, reason: 'not our voice' });
  assert.deepEqual([rejected.post.approval.status, rejected.post.approval.reason], ['rejected', 'not our voice']);
  const again = await client.callTool({ name: 'approve_post', arguments: { id: second.post.id } });
  assert.equal(again.isError, true, 'a rejected post cannot be approved');
  assert.equal((await server.request('PATCH', '/v1/settings', { key: org.key, body: { requireApproval: false } })).status, 200);
});
