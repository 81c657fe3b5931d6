// POST /mcp (Streamable HTTP) driven by the official MCP SDK client against a started Crier: the
// tools an agent sees, a post created and its status read, the API's validation as a tool error,
// and the API key's authentication and org scoping.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { untrustedBlock } from '../../src/mcp/untrusted.ts';
import { countRows, startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let x: TestAccount;
const clients: Client[] = [];

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  other = await server.createOrg();
  x = await server.addAccount(org, 'x', 'alice_x');
  await server.addAccount(other, 'x', 'bob_x');
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

async function connect(key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'crier-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const structured = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as any;

describe('POST /mcp with the official client', () => {
  test('lists the tools, with the API\'s own create-post schema as create_post\'s input', async () => {
    const client = await connect(org.key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['list_accounts', 'create_post', 'get_post', 'list_posts', 'cancel_post', 'reschedule_post', 'list_media', 'list_boards', 'list_subreddits_flairs']) {
      assert.ok(names.includes(name), `${name} is listed (got ${names.join(', ')})`);
    }
    const openapi = await (await fetch(`${server.url}/openapi.json`)).json();
    const createBody = openapi.paths['/v1/posts'].post.requestBody.content['application/json'].schema;
    const create = tools.find((t) => t.name === 'create_post')!;
    // The body's properties, and the Idempotency-Key header as an input of its own.
    const { idempotency_key: idempotencyKey, ...bodyInputs } = create.inputSchema.properties as Record<string, any>;
    assert.deepEqual(bodyInputs, createBody.properties);
    assert.equal(idempotencyKey.type, 'string');
    assert.deepEqual(create.inputSchema.required, ['accounts']);
    const list = tools.find((t) => t.name === 'list_posts')!;
    assert.ok(list.inputSchema.properties?.social_account_id, 'list_posts takes the API\'s filters');
    assert.deepEqual(tools.find((t) => t.name === 'list_subreddits_flairs')!.inputSchema.required, ['id', 'name']);
  });

  test('every tool has a name of its own: none listed twice, no second name for one operation', async () => {
    const { tools } = await (await connect(org.key)).listTools();
    const names = tools.map((t) => t.name);
    assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), [], `names listed twice: ${names.join(', ')}`);
    assert.ok(names.includes('get_account_metrics') && !names.includes('list_metrics'), 'the metrics have one tool');
    assert.ok(names.includes('list_imports'), 'the import jobs are listed');
  });

  test('list_accounts answers the org\'s accounts only', async () => {
    const result = await (await connect(org.key)).callTool({ name: 'list_accounts', arguments: {} });
    assert.equal(result.isError, undefined);
    assert.deepEqual(structured(result).data.map((a: any) => a.username), ['alice_x']);
  });

  test('create_post schedules a post; get_post reads its destinations; reschedule_post and cancel_post change it', async () => {
    const client = await connect(org.key);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const created = await client.callTool({ name: 'create_post', arguments: { accounts: [x.id], content: 'Hello from an agent', scheduledAt: at } });
    assert.equal(created.isError, undefined, JSON.stringify(created.content));
    const id = structured(created).post.id;
    const read = await client.callTool({ name: 'get_post', arguments: { id } });
    const post = structured(read).post;
    // A post's text is marked as text from outside (a post imported from a network was written there).
    const marker = /\(marker (\w+)\)/.exec((read.content as any).at(-1).text)![1]!;
    assert.equal(post.containers[0].content, untrustedBlock('Hello from an agent', marker));
    assert.deepEqual(post.socialAccounts.map((s: any) => [s.id, s.status]), [[x.id, 'pending']]);
    assert.equal(new Date(post.scheduledAt).getTime(), new Date(at).getTime());

    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const moved = await client.callTool({ name: 'reschedule_post', arguments: { id, scheduledAt: later } });
    assert.equal(new Date(structured(moved).post.scheduledAt).getTime(), new Date(later).getTime());
    const listed = await client.callTool({ name: 'list_posts', arguments: { social_account_id: x.id, limit: 5 } });
    assert.ok(structured(listed).posts.some((p: any) => p.id === id));
    const cancelled = await client.callTool({ name: 'cancel_post', arguments: { id } });
    assert.equal(structured(cancelled).outcome, 'cancelled');
  });

  test('create_post with idempotency_key: an agent retrying the call creates one post', async () => {
    const client = await connect(org.key);
    const before = await countRows(server.db, 'posts', org.orgId);
    const args = { accounts: [x.id], content: 'Once only', isDraft: true, idempotency_key: `agent-${Date.now()}` };
    const first = await client.callTool({ name: 'create_post', arguments: args });
    const again = await client.callTool({ name: 'create_post', arguments: args });
    assert.equal(first.isError, undefined, JSON.stringify(first.content));
    assert.equal(structured(again).post.id, structured(first).post.id);
    assert.equal(await countRows(server.db, 'posts', org.orgId), before + 1);
  });

  test('an invalid post is a tool error carrying the API\'s message and per-field details; nothing is stored', async () => {
    const before = await countRows(server.db, 'posts', org.orgId);
    const result = await (await connect(org.key)).callTool({ name: 'create_post', arguments: { accounts: [x.id], content: 'x', scheduledAt: 'next tuesday' } });
    assert.equal(result.isError, true);
    const error = structured(result);
    assert.equal(error.status, 400);
    assert.ok(Array.isArray(error.details) && error.details.length > 0, JSON.stringify(error));
    assert.match(JSON.stringify(error.details), /scheduledAt/);
    assert.match((result.content as any)[0].text, /scheduledAt/);
    assert.equal(await countRows(server.db, 'posts', org.orgId), before);
  });

  test('without an API key, or with a wrong one, the MCP endpoint refuses to start a session', async () => {
    await assert.rejects(connect(undefined), /401|Missing API key/);
    await assert.rejects(connect('sk_not_a_key'), /401|Invalid API key/);
  });

  test('stateless: GET and DELETE /mcp answer 405 (no stream, no session), after the API key', async () => {
    assert.equal((await server.request('GET', '/mcp')).status, 401);
    const get = await server.request('GET', '/mcp', { key: org.key });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await server.request('DELETE', '/mcp', { key: org.key })).status, 405);
  });

  test('another org\'s post is invisible: get_post answers the API\'s 404 and list_posts leaves it out', async () => {
    const mine = await connect(org.key);
    const id = structured(await mine.callTool({ name: 'create_post', arguments: { accounts: [x.id], content: 'private', isDraft: true } })).post.id;
    const theirs = await connect(other.key);
    const read = await theirs.callTool({ name: 'get_post', arguments: { id } });
    assert.equal(read.isError, true);
    assert.equal(structured(read).status, 404);
    const listed = await theirs.callTool({ name: 'list_posts', arguments: {} });
    assert.equal(structured(listed).posts.some((p: any) => p.id === id), false);
  });
});
