// `crier start` on a fresh machine: no DATABASE_URL, an empty data dir. It must start the embedded
// PostgreSQL (as an unprivileged user when run as root), print the admin key once, serve the API,
// stop cleanly, and come back after a kill -9 without losing data.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runInCheckout } from '../helpers/checkout.ts';
import { startCrierProcess } from '../helpers/process.ts';
import { freePort } from '../../src/db/embedded.ts';

let dataDir: string;
let env: Record<string, string | undefined>;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-start-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
});

after(async () => {
  // A server orphaned by the kill -9 test must not outlive the suite.
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    try { process.kill(pid, 'SIGINT'); } catch { /* already gone */ }
    for (let i = 0; i < 50 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
  }
  await rm(dataDir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${env.PORT}`;

test('first start creates the default org, prints its key once, and serves the API', async (t) => {
  const crier = startCrierProcess(['start'], env);
  t.after(() => crier.child.kill('SIGKILL'));
  const [, key] = await crier.waitFor(/Admin API key \(shown once, store it now\): (crier_\S+)/);
  await crier.waitFor(/Crier is running/);
  assert.match(crier.output(), new RegExp(`API:\\s+http://127\\.0\\.0\\.1:${env.PORT}/v1`));
  assert.match(crier.output(), /Docs:\s+\S+\/docs/);
  const health = await fetch(`${base()}/healthz`);
  assert.equal(health.status, 200);
  const accounts = await fetch(`${base()}/v1/social-accounts`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(accounts.status, 200);
  // Secrets generated into the data dir are private.
  assert.equal(statSync(path.join(dataDir, 'secret-key')).mode & 0o077, 0);
  assert.equal(statSync(path.join(dataDir, 'postgres-password')).mode & 0o077, 0);
  crier.child.kill('SIGTERM');
  assert.equal(await crier.exited, 0);
  assert.ok(!existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')), 'the embedded PostgreSQL stopped with it');
  process.env.CRIER_START_TEST_KEY = key;
});

test('a second start prints no key, says how to make one, and keeps the data', async (t) => {
  const crier = startCrierProcess(['start'], env);
  t.after(() => crier.child.kill('SIGKILL'));
  await crier.waitFor(/Crier is running/);
  assert.doesNotMatch(crier.output(), /Admin API key/);
  // A key lost with an unread (or failed) first start is not a dead end.
  const [, printed] = await crier.waitFor(/A new one for the default organization: (npx crier key create --org \d+ --name <name>)\n/);
  // The command works as printed, typed in a checkout where `crier` is not on the PATH.
  const made = await runInCheckout(printed!.replace('<name>', 'replacement'), env);
  assert.equal(made.code, 0, made.stderr);
  const [, replacement] = made.stdout.match(/(crier_\S+)/)!;
  assert.equal((await fetch(`${base()}/v1/posts`, { headers: { authorization: `Bearer ${replacement}` } })).status, 200);
  const res = await fetch(`${base()}/v1/posts`, { headers: { authorization: `Bearer ${process.env.CRIER_START_TEST_KEY}` } });
  assert.equal(res.status, 200);
  crier.child.kill('SIGTERM');
  assert.equal(await crier.exited, 0);
});

test('after kill -9 the next start reuses the orphaned PostgreSQL instead of failing', async (t) => {
  const first = startCrierProcess(['start'], env);
  await first.waitFor(/Crier is running/);
  first.child.kill('SIGKILL');
  await first.exited;
  const second = startCrierProcess(['start'], env);
  t.after(() => second.child.kill('SIGKILL'));
  await second.waitFor(/Crier is running/);
  const res = await fetch(`${base()}/v1/posts`, { headers: { authorization: `Bearer ${process.env.CRIER_START_TEST_KEY}` } });
  assert.equal(res.status, 200);
  assert.match(second.output(), /\(adopted\)|Crier is running/);
  second.child.kill('SIGTERM');
  assert.equal(await second.exited, 0);
  assert.ok(!existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')), 'the adopted PostgreSQL was stopped too');
});

test('invalid configuration stops with a clear message', async () => {
  const crier = startCrierProcess(['start'], { ...env, PORT: 'eighty', LOG_LEVEL: 'loud' });
  assert.equal(await crier.exited, 1);
  assert.match(crier.output(), /PORT must be an integer/);
  assert.match(crier.output(), /LOG_LEVEL must be one of/);
});
