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

test('the sandbox offers the connect flow of every OAuth network, pick-a-page sessions included', async (t) => {
  const { crier, key } = await runSandbox(t);
  const networks = crier.output().match(/Connect an account \(([^)]+)\)/)![1]!.split(', ');
  assert.deepEqual([...networks].sort(), ['facebook', 'google_business', 'instagram', 'linkedin', 'pinterest', 'reddit', 'threads', 'tiktok', 'vimeo', 'x', 'youtube']);
  for (const network of networks) {
    const auth = await api(`/v1/social-networks/${network}/auth-url`, key, { method: 'POST', body: '{}' });
    assert.equal(auth.status, 200, `${network}: ${JSON.stringify(auth.body)}`);
    const consent = await fetch(auth.body.data.auth_url, { redirect: 'manual' });
    assert.equal(consent.status, 302, `${network} consent: ${await consent.clone().text()}`);
    const back = new URL(consent.headers.get('location')!);
    assert.equal(back.pathname, `/oauth/callback/${network}`);
    // No redirect_uri was given: Crier answers the outcome as JSON.
    const callback = await fetch(`http://127.0.0.1:${env.PORT}${back.pathname}${back.search}`);
    const outcome = (await callback.json()) as any;
    assert.equal(callback.status, 200, `${network} callback: ${JSON.stringify(outcome)}`);
    let connected: any[];
    if (outcome.session) {
      assert.ok(['facebook', 'instagram', 'linkedin', 'google_business'].includes(network), `${network} should not need a pick`);
      const pending = await fetch(`http://127.0.0.1:${env.PORT}/v1/social-accounts/pending/${outcome.session}`).then((r) => r.json() as any);
      assert.equal(pending.data.network, network);
      const finalize = await fetch(`http://127.0.0.1:${env.PORT}/v1/social-accounts/pending/${outcome.session}/finalize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ selectedPageIds: [pending.data.availablePages[0].id] }),
      }).then((r) => r.json() as any);
      connected = finalize.connectedAccounts;
    } else {
      connected = [outcome.data];
    }
    assert.equal(connected.length, 1, network);
    assert.deepEqual([connected[0].network, connected[0].sandbox, connected[0].isActive], [network, true, 1], network);
  }
  const listed = await api('/v1/social-accounts?limit=100', key);
  assert.deepEqual([...new Set(listed.body.data.map((a: any) => a.network))].sort(), ['bluesky', ...networks].sort());
  assert.ok(listed.body.data.every((a: any) => a.sandbox === true));
});
