// `crier start --sandbox` (npm run demo) as the README walks a newcomer through it: start, publish a
// thread to the sandbox accounts by username, see it published on GET /v1/posts/:id.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { startCrierProcess } from '../helpers/process.ts';

let dataDir: string;
let env: Record<string, string | undefined>;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'crier-sandbox-'));
  env = { CRIER_DATA_DIR: dataDir, DATABASE_URL: undefined, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
});
after(() => rm(dataDir, { recursive: true, force: true }));

async function runSandbox(t: { after(fn: () => unknown): void }) {
  const crier = startCrierProcess(['start', '--sandbox'], env);
  t.after(async () => { crier.child.kill('SIGTERM'); await crier.exited; });
  const [, key] = await crier.waitFor(/API key for this sandbox run: (crier_\S+)/);
  const accounts = [...crier.output().matchAll(/(x|bluesky)\s+@(\S+)\s+account id (\S+)/g)].map((m) => ({ network: m[1], username: m[2], id: m[3] }));
  return { crier, key: key!, accounts };
}

const api = (pathname: string, key: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${env.PORT}${pathname}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }).then(async (r) => ({ status: r.status, body: await r.json() as any }));

test('the README walk-through: a thread to both sandbox accounts is published', async (t) => {
  const { key, accounts } = await runSandbox(t);
  assert.deepEqual(accounts.map((a) => [a.network, a.username]), [['x', 'sandbox_x'], ['bluesky', 'sandbox.test']]);
  const created = await api('/v1/posts', key, { method: 'POST', body: JSON.stringify({ accounts: ['sandbox_x', 'sandbox.test'], containers: [{ content: 'Hello from Crier' }, { content: 'and a reply' }] }) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  let post: any;
  for (let i = 0; i < 100; i++) {
    post = (await api(`/v1/posts/${created.body.post.id}`, key)).body.post;
    if (post.socialAccounts.every((a: any) => a.status === 'published')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(post.socialAccounts.map((a: any) => a.status), ['published', 'published']);
  assert.match(post.socialAccounts[0].platformPostUrl, /^https:\/\/x\.com\/sandbox_x\/status\/\d+$/);
  assert.match(post.socialAccounts[1].platformPostUrl, /^https:\/\/bsky\.app\/profile\/sandbox\.test\/post\/\w+$/);
  const listed = await api('/v1/social-accounts', key);
  assert.ok(listed.body.data.every((a: any) => a.sandbox === true), 'sandbox accounts say so');
});

test('a second sandbox run prints a fresh key and keeps the same sandbox account ids', async (t) => {
  const { key, accounts } = await runSandbox(t);
  assert.equal((await api('/v1/social-accounts', 'crier_not_a_key')).status, 401);
  const listed = await api('/v1/social-accounts', key);
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.data.map((a: any) => a.id), accounts.map((a) => a.id));
});
