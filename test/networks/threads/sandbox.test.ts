// The Threads sandbox: `crier start --sandbox` connects @sandbox_threads out of the box with a
// long-lived token the emulator honours for publishing, and readies the connect flow for the same profile.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SandboxAccountSeed, SandboxEmulator } from '../../../src/sandbox/contract.ts';
import { threadsEmulator } from '../../../src/networks/threads/sandbox.ts';

let emulator: SandboxEmulator;
let seeds: SandboxAccountSeed[];

before(async () => {
  emulator = await threadsEmulator.start('127.0.0.1');
  seeds = await emulator.sandboxAccounts!();
});
after(() => emulator.close());

const graph = (path: string, token: string, form?: Record<string, string>) => fetch(`${emulator.url}${path}`, {
  method: form ? 'POST' : 'GET',
  headers: { authorization: `Bearer ${token}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
  ...(form ? { body: new URLSearchParams(form).toString() } : {}),
}).then(async (r) => ({ status: r.status, body: await r.json() as any }));

test('the sandbox profile is seeded with a token that reads the profile and publishes', async () => {
  assert.deepEqual(seeds.map((s) => [s.network, s.username, s.nickname]), [['threads', 'sandbox_threads', 'Sandbox Threads']]);
  const [seed] = seeds as [SandboxAccountSeed];
  const me = await graph('/v1.0/me?fields=id,username', seed.accessToken!);
  assert.deepEqual(me.body, { id: seed.networkUniqueId, username: 'sandbox_threads' });
  const container = await graph(`/v1.0/${seed.networkUniqueId}/threads`, seed.accessToken!, { media_type: 'TEXT', text: 'hello from the sandbox' });
  assert.equal(container.status, 200);
  const published = await graph(`/v1.0/${seed.networkUniqueId}/threads_publish`, seed.accessToken!, { creation_id: container.body.id });
  assert.equal(published.status, 200, JSON.stringify(published.body));
});

test('the connect flow signs the same profile in', async () => {
  emulator.prepareConnect!({ clientId: 'sandbox-threads', clientSecret: 's3cret', redirectUris: ['http://localhost:3000/oauth/callback/threads'] });
  const res = await fetch(`${emulator.url}/oauth/authorize?${new URLSearchParams({ client_id: 'sandbox-threads', redirect_uri: 'http://localhost:3000/oauth/callback/threads', scope: 'threads_basic', response_type: 'code', state: 's' })}`, { redirect: 'manual' });
  assert.equal(res.status, 302);
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const exchange = await fetch(`${emulator.url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'sandbox-threads', client_secret: 's3cret', code, grant_type: 'authorization_code', redirect_uri: 'http://localhost:3000/oauth/callback/threads' }).toString(),
  }).then((r) => r.json() as any);
  assert.equal(String(exchange.user_id), seeds[0]!.networkUniqueId);
});
