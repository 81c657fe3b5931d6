// `crier events` as a user runs it: a `crier` child process against a started Crier, with an org's
// key. The table, --json (the API's answer), --after and --types, a refused flag (exit 2 with the
// field named), and --follow printing events as they happen until Ctrl-C (exit 0).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { emitEvent } from '../../src/webhooks/outbox.ts';
import { startTestServer, type TestOrg, type TestServer } from '../helpers/harness.ts';
import { runCrier, startCrierProcess } from '../helpers/process.ts';

let server: TestServer;
let org: TestOrg;
let env: Record<string, string>;

before(async () => {
  server = await startTestServer();
  org = await server.createOrg();
  env = { CRIER_URL: server.url, CRIER_API_KEY: org.key };
  const other = await server.createOrg();
  await emitEvent(server.db, other.orgId, 'test', { message: 'not ours', endpointId: 9 });
  await emitEvent(server.db, org.orgId, 'post.published', { postId: 'p1', orgId: 'o', socialAccounts: [] });
  await emitEvent(server.db, org.orgId, 'test', { message: 'hello there', endpointId: 7 });
});
after(async () => {
  await server.close();
});

const crier = (...args: string[]) => runCrier(args, env);

test('events prints a table of the org\'s events, oldest first, and the cursor to continue from', async () => {
  const run = await crier('events');
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^TIME\s+EVENT\s+ID\s+ABOUT$/);
  assert.match(lines[1]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+post\.published\s+[0-9a-f-]{36}\s+postId=p1$/);
  assert.match(lines[2]!, /\stest\s+[0-9a-f-]{36}\s+endpointId=7 "hello there"$/);
  assert.match(lines[3]!, /^nothing more yet: --after \S+$/);
  assert.equal(lines.length, 4, 'another org\'s event is not listed');
});

test('--json prints the API\'s answer; --after and --types narrow it', async () => {
  const json = await crier('events', '--json');
  assert.equal(json.code, 0, json.stderr);
  const page = JSON.parse(json.stdout);
  assert.deepEqual(page, (await server.request('GET', '/v1/events', { key: org.key })).body);
  const later = JSON.parse((await crier('events', '--json', '--after', page.data[0].cursor)).stdout);
  assert.deepEqual(later.data.map((e: any) => e.event), ['test']);
  const typed = JSON.parse((await crier('events', '--json', '--types', 'post.published', '--limit', '5')).stdout);
  assert.deepEqual(typed.data.map((e: any) => e.data.postId), ['p1']);
});

test('a bad flag value is refused by Crier: exit 2, the field named on stderr', async () => {
  const run = await crier('events', '--types', 'post.nope');
  assert.equal(run.code, 2);
  assert.match(run.stderr, /types/);
  assert.match(run.stderr, /post\.nope/);
});

test('--follow prints the events there are, then each new one as it happens, until interrupted', async () => {
  const following = startCrierProcess(['events', '--follow', '--json'], env);
  try {
    await following.waitFor(/"hello there"/, 20_000);
    await emitEvent(server.db, org.orgId, 'test', { message: 'brand new', endpointId: 7 });
    await following.waitFor(/"brand new"/, 20_000);
    const printed = following.output().trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(printed.map((e) => e.data.message ?? e.data.postId), ['p1', 'hello there', 'brand new'], 'each once, in order');
    following.child.kill('SIGINT');
    assert.equal(await following.exited, 0, 'Ctrl-C ends it normally');
  } finally {
    if (following.child.exitCode === null) following.child.kill('SIGKILL');
  }
});
