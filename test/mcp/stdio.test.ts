// `crier mcp` (stdio) spawned by the official MCP SDK client, calling a started Crier over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestServer, type TestAccount, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { CRIER_BIN, runCrier } from '../helpers/process.ts';

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
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

/** The client an agent runs: it spawns `crier mcp` with the Crier to call and the org's key. */
async function spawnMcp(key: string): Promise<Client> {
  const client = new Client({ name: 'crier-test', version: '1.0.0' });
  const env = { PATH: process.env.PATH ?? '', CRIER_URL: server.url, CRIER_API_KEY: key, LOG_LEVEL: 'silent' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CRIER_BIN, 'mcp'], env, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

const structured = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as any;

describe('crier mcp over stdio', () => {
  test('lists the tools, creates a post and reads its per-destination status', async () => {
    const client = await spawnMcp(org.key);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(['list_accounts', 'create_post', 'get_post', 'list_posts'].every((n) => names.includes(n)), names.join(', '));
    const accounts = structured(await client.callTool({ name: 'list_accounts', arguments: {} }));
    assert.deepEqual(accounts.data.map((a: any) => a.id), [x.id]);
    const created = await client.callTool({ name: 'create_post', arguments: { accounts: ['alice_x'], content: 'From a local agent', isDraft: true } });
    assert.equal(created.isError, undefined, JSON.stringify(created.content));
    const read = structured(await client.callTool({ name: 'get_post', arguments: { id: structured(created).post.id } }));
    assert.match(read.post.containers[0].content, /^\[untrusted third-party text \(marker \w+\)[^\n]*\]\nFrom a local agent\n\[end of untrusted text \(marker \w+\)\]$/);
    assert.deepEqual(read.post.socialAccounts.map((s: any) => s.username), ['alice_x']);
  });

  test('a bad post is a tool error with the API\'s details', async () => {
    const client = await spawnMcp(org.key);
    const result = await client.callTool({ name: 'create_post', arguments: { accounts: [x.id] } });
    assert.equal(result.isError, true);
    assert.equal(structured(result).status, 400);
    assert.ok(structured(result).details, JSON.stringify(result.content));
  });

  test('a wrong key: every tool call is refused by the API (401)', async () => {
    const client = await spawnMcp('sk_not_a_key');
    const result = await client.callTool({ name: 'list_accounts', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal(structured(result).status, 401);
    assert.match((result.content as any)[0].text, /Invalid API key/);
  });

  test('another org\'s key does not see the post', async () => {
    const mine = await spawnMcp(org.key);
    const id = structured(await mine.callTool({ name: 'create_post', arguments: { accounts: [x.id], content: 'mine', isDraft: true } })).post.id;
    const theirs = await spawnMcp(other.key);
    const read = await theirs.callTool({ name: 'get_post', arguments: { id } });
    assert.equal(read.isError, true);
    assert.equal(structured(read).status, 404);
  });

  test('without CRIER_URL or CRIER_API_KEY, crier mcp exits saying what it needs', async () => {
    const result = await runCrier(['mcp'], { CRIER_URL: undefined, CRIER_API_KEY: undefined, LOG_LEVEL: 'silent' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /CRIER_URL.*CRIER_API_KEY/);
    assert.equal(result.stdout, '', 'stdout is the protocol: nothing else is written to it');
  });
});
