// `crier start` when it cannot start, as an operator meets it: each cause is one line on stderr
// saying what is wrong and what to do (the stack only at LOG_LEVEL=debug), a non-zero exit, and no
// embedded PostgreSQL left running behind. A first start that fails loses no admin key: the start
// that reaches "ready" is the one that creates the default organization and prints it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { checkDatabaseUrl, DEFAULT_CONNECT_TIMEOUT_SECONDS } from '../../src/db/database.ts';
import { freePort } from '../../src/db/embedded.ts';
import { TEST_SECRET_KEY_HEX } from '../helpers/harness.ts';
import { runCrier, startCrierProcess } from '../helpers/process.ts';

let dataDir: string;
let env: Record<string, string | undefined>;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-fail-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, CRIER_SECRET_KEY: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
});

after(async () => {
  for (const pid of postgresServing(dataDir)) process.kill(pid, 'SIGINT'); // only if a test failed
  await rm(dataDir, { recursive: true, force: true });
});

/** PostgreSQL processes serving `<dir>/postgres`, from /proc (whatever their pid file says). */
function postgresServing(dir: string): number[] {
  const databaseDir = path.join(dir, 'postgres');
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return cmdline.some((arg) => arg.includes('postgres')) && cmdline.includes(databaseDir) ? [Number(pid)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

/** What the operator sees: exit code non-zero, one line on stderr matching `pattern`, no stack. */
function assertOneLineFailure(res: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.notEqual(res.code, 0, 'the start failed');
  assert.equal(res.stderr.trimEnd().split('\n').length, 1, `stderr is one line:\n${res.stderr}`);
  assert.match(res.stderr, pattern);
}

function assertNoPostgresLeft(dir = dataDir): void {
  assert.deepEqual(postgresServing(dir), [], 'no embedded PostgreSQL is left running');
}

const base = () => `http://127.0.0.1:${env.PORT}`;

test('port in use: one line, no PostgreSQL left, no org created; the next start prints the admin key', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(Number(env.PORT), '127.0.0.1', resolve));
  const failed = await runCrier(['start'], env);
  await new Promise((resolve) => blocker.close(resolve));
  assertOneLineFailure(failed, new RegExp(`^Port ${env.PORT} is already in use on 127\\.0\\.0\\.1: .*set PORT to a free port\\.$`, 'm'));
  assert.doesNotMatch(failed.stdout, /Admin API key/, 'a start that failed shows no key, so it created none');
  assertNoPostgresLeft();

  const crier = startCrierProcess(['start'], env);
  t.after(() => crier.child.kill('SIGKILL'));
  const [, key] = await crier.waitFor(/Admin API key \(shown once, store it now\): (crier_\S+)/);
  await crier.waitFor(/Crier is running/);
  // A sealed secret in the database, for the wrong-key test below (a name that does not resolve is accepted).
  const webhook = await fetch(`${base()}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'sealed', url: 'https://receiver.crier-test.invalid/hook', events: ['post.published'], generateSecret: true }),
  });
  assert.equal(webhook.status, 201, await webhook.text());
  crier.child.kill('SIGTERM');
  assert.equal(await crier.exited, 0);
  assertNoPostgresLeft();
});

test('a key that is not the data\'s: one line, no PostgreSQL left', async () => {
  const res = await runCrier(['start'], { ...env, CRIER_SECRET_KEY: randomBytes(32).toString('hex') });
  assertOneLineFailure(res, /is not the key this database's secrets are sealed with/);
  assertNoPostgresLeft();
});

test('an embedded PostgreSQL that stops while starting: one line with its FATAL, not "undefined"; no PostgreSQL left', async (t) => {
  const conf = path.join(dataDir, 'postgres', 'postgresql.conf');
  const original = readFileSync(conf, 'utf8');
  t.after(() => writeFile(conf, original));
  await writeFile(conf, `${original}\nshared_buffers = 'plenty'\n`);
  const res = await runCrier(['start'], env);
  assertOneLineFailure(res, /^The embedded PostgreSQL \(data in .*\) stopped while starting: FATAL: configuration file ".*postgresql\.conf" contains errors\. Fix what it names, or set DATABASE_URL/);
  assertNoPostgresLeft();
});

test('a malformed CRIER_SECRET_KEY: one line, before the database is even started', async () => {
  const res = await runCrier(['start'], { ...env, CRIER_SECRET_KEY: 'not-a-key' });
  assertOneLineFailure(res, /^Invalid configuration: CRIER_SECRET_KEY must be 32 bytes/);
  assertNoPostgresLeft();
});

test('DATABASE_URL where nothing listens: one line; the stack only at LOG_LEVEL=debug', async () => {
  const port = await freePort();
  const unreachable = { ...env, DATABASE_URL: `postgres://crier:secret@127.0.0.1:${port}/crier`, CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX };
  const res = await runCrier(['start'], unreachable);
  assertOneLineFailure(res, new RegExp(`^Nothing accepts connections at 127\\.0\\.0\\.1:${port} \\(DATABASE_URL\\): start PostgreSQL there`));
  assert.doesNotMatch(res.stderr, /secret/, 'the password of DATABASE_URL is not printed');
  const debug = await runCrier(['start'], { ...unreachable, LOG_LEVEL: 'debug' });
  assert.match(debug.stderr, /^Nothing accepts connections/);
  assert.match(debug.stderr, /\n\s+at /, 'the stack, for whoever debugs');
});

/** A TCP port that is not PostgreSQL: it accepts, then hangs up at once or never says a word. */
async function fakeDatabasePort(behaviour: 'hang up' | 'silent'): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (behaviour === 'hang up') return void socket.destroy();
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

test('DATABASE_URL where something accepts and hangs up: one line naming DATABASE_URL and its host, not its password', async (t) => {
  const fake = await fakeDatabasePort('hang up');
  t.after(() => fake.close());
  const res = await runCrier(['start'], { ...env, DATABASE_URL: `postgres://crier:secret@127.0.0.1:${fake.port}/crier`, CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX });
  assertOneLineFailure(res, new RegExp(`^Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${fake.port} \\(DATABASE_URL\\): the connection was closed before PostgreSQL answered`));
  assert.match(res.stderr, /Check that DATABASE_URL names the right host and port.*or unset DATABASE_URL to use the embedded PostgreSQL/);
  assert.doesNotMatch(res.stderr, /secret/, 'the password of DATABASE_URL is not printed');
});

test('DATABASE_URL where nothing ever answers (a black hole): the start gives up after connect_timeout, in one line', async (t) => {
  const fake = await fakeDatabasePort('silent');
  t.after(() => fake.close());
  const startedAt = Date.now();
  const res = await runCrier(['start'], { ...env, DATABASE_URL: `postgres://crier:secret@127.0.0.1:${fake.port}/crier?connect_timeout=1`, CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX });
  assertOneLineFailure(res, new RegExp(`^Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${fake.port} \\(DATABASE_URL\\): nothing answered within 1 s\\. Check that DATABASE_URL`));
  assert.doesNotMatch(res.stderr, /secret/);
  assert.ok(Date.now() - startedAt < 20_000, 'it did not hang');
});

test('a black-holed DATABASE_URL without connect_timeout is given up after the default 10 s', async (t) => {
  const fake = await fakeDatabasePort('silent');
  t.after(() => fake.close());
  const startedAt = Date.now();
  await assert.rejects(checkDatabaseUrl(`postgres://crier:secret@127.0.0.1:${fake.port}/crier`), (error: Error) => {
    assert.match(error.message, new RegExp(`^Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${fake.port} \\(DATABASE_URL\\): nothing answered within ${DEFAULT_CONNECT_TIMEOUT_SECONDS} s`));
    return true;
  });
  const waited = Date.now() - startedAt;
  assert.ok(waited >= DEFAULT_CONNECT_TIMEOUT_SECONDS * 1000 - 100 && waited < DEFAULT_CONNECT_TIMEOUT_SECONDS * 1000 + 5000, `gave up after ${waited} ms`);
});

test('DATABASE_URL naming a database that does not exist: one line saying how to create it', async () => {
  const missing = new URL(process.env.CRIER_TEST_ADMIN_URL!);
  const name = `crier_missing_${randomBytes(4).toString('hex')}`;
  missing.pathname = `/${name}`;
  const res = await runCrier(['start'], { ...env, DATABASE_URL: missing.toString(), CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX });
  assertOneLineFailure(res, new RegExp(`^The database "${name}" does not exist on .*\\(DATABASE_URL\\): create it \\(createdb ${name}\\)`));
});

test('a data dir that is a file: one line, no PostgreSQL', async () => {
  const file = path.join(dataDir, 'not-a-dir');
  await writeFile(file, 'x');
  const res = await runCrier(['start'], { ...env, CRIER_DATA_DIR: file });
  assertOneLineFailure(res, new RegExp(`^CRIER_DATA_DIR \\(${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) is a file, not a directory`));
  assertNoPostgresLeft(file);
});

/** A directory Crier cannot write: permissions for a normal user; a read-only mount for root. */
async function unwritableDir(t: { after(fn: () => unknown): void; skip(message: string): void }): Promise<string | undefined> {
  const dir = path.join(dataDir, `locked-${randomBytes(3).toString('hex')}`);
  await mkdir(dir);
  if (process.getuid?.() !== 0) {
    execFileSync('chmod', ['0500', dir]);
    t.after(() => execFileSync('chmod', ['0700', dir]));
    return dir;
  }
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    t.skip('running as root without the right to mount a read-only file system');
    return undefined;
  }
  t.after(() => execFileSync('umount', [dir]));
  return dir;
}

test('a data dir Crier cannot write: one line, no PostgreSQL', async (t) => {
  const dir = await unwritableDir(t);
  if (!dir) return;
  const res = await runCrier(['start'], { ...env, CRIER_DATA_DIR: dir });
  assertOneLineFailure(res, /^Crier cannot write to its data directory .* \((permission denied|it is on a read-only file system)\): set CRIER_DATA_DIR/);
  assert.ok(!existsSync(path.join(dir, 'postgres')));
  assertNoPostgresLeft(dir);
});
