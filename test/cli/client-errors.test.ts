// What a client command says and exits with when it cannot do what was asked: 1 for a usage
// mistake (nothing sent), 2 when the API refuses (its error and per-field details on stderr, its
// body on stdout with --json), 3 when Crier cannot be reached.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { runCrier } from '../helpers/process.ts';
import { runSandbox, sandboxApi, type SandboxRun } from '../helpers/sandbox.ts';

let dataDir: string;
let sandbox: SandboxRun;
let client: Record<string, string | undefined>;
let api: ReturnType<typeof sandboxApi>;
const cleanups: (() => unknown)[] = [];

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-client-errors-'));
  const port = String(await freePort());
  sandbox = await runSandbox({ after: (fn) => cleanups.push(fn) }, { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PUBLIC_BASE_URL: undefined, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  client = { CRIER_URL: `http://127.0.0.1:${sandbox.port}`, CRIER_API_KEY: sandbox.key };
  api = sandboxApi(sandbox.port);
});
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

const crier = (...args: string[]) => runCrier(args, client);
const postCount = async () => (await api('/v1/posts?limit=1', sandbox.key)).body.pagination.total as number;

test('usage mistakes exit 1, say what is wrong, and send nothing', async () => {
  const count = await postCount();
  const cases: [string[], RegExp][] = [
    [['post', '--text', 'no destination'], /needs at least one --to/],
    [['post', '--to', 'sandbox_x', '--text', 'hi', '--at', 'tomorrow'], /--at "tomorrow": give an ISO 8601 time with its offset/],
    [['post', '--to', 'sandbox_x', '--text', 'hi', '--media', path.join(dataDir, 'missing.png')], /--media .*missing\.png: no such file/],
    [['post', '--to', 'sandbox_x', '--text', 'hi', '--colour', 'red'], /Unknown option '--colour'/],
    [['status'], /status needs one post id/],
    [['webhooks', 'rename', '1'], /webhooks list \| create/],
  ];
  for (const [args, message] of cases) {
    const run = await crier(...args);
    assert.equal(run.code, 1, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
  const keyless = await runCrier(['accounts'], { CRIER_URL: client.CRIER_URL, CRIER_API_KEY: undefined });
  assert.equal(keyless.code, 1);
  assert.match(keyless.stderr, /no API key: set CRIER_API_KEY or pass --key/);
  assert.equal(await postCount(), count, 'no post was created');
});

test('a refusal by the API exits 2 with its error and per-field details; --json prints its body', async () => {
  const unknown = await crier('post', '--to', 'nobody_here', '--text', 'hi');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^crier: Crier answered 400: .*\[no_account_resolved\]\n {2}accounts: /);
  const tooFar = await crier('post', '--to', 'sandbox_x', '--text', 'hi', '--at', '+40d', '--json');
  assert.equal(tooFar.code, 2);
  assert.equal(JSON.parse(tooFar.stdout).success, false);
  assert.match(tooFar.stderr, /scheduledAt: .*30 days/);
  const badKey = await crier('accounts', '--key', 'crier_not_a_key');
  assert.equal(badKey.code, 2);
  assert.match(badKey.stderr, /Crier answered 401/);
  const missing = await crier('status', 'zzzzzzzz');
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Crier answered 404: Post not found/);
});

test('a Crier that cannot be reached exits 3, naming the URL', async () => {
  const port = await freePort();
  const run = await crier('accounts', '--url', `http://127.0.0.1:${port}`);
  assert.equal(run.code, 3);
  assert.match(run.stderr, new RegExp(`cannot reach Crier at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
});
