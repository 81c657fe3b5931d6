// Every emulator records the calls it answers and serves them on GET /__emulator/calls: the method,
// path, every value of each query parameter, the body's digest and the status — never a secret.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import type { SandboxEmulator, SandboxEmulatorSpec } from '../../src/sandbox/contract.ts';

const specs = [...new Set(NETWORK_LIST.flatMap((n) => (n.sandbox ? [n.sandbox.emulator] : [])))];
const running: { spec: SandboxEmulatorSpec; emulator: SandboxEmulator }[] = [];

before(async () => {
  for (const spec of specs) running.push({ spec, emulator: await spec.start('127.0.0.1') });
});
after(async () => {
  await Promise.all(running.map(({ emulator }) => emulator.close()));
});

async function calls(url: string, since?: number) {
  const res = await fetch(`${url}/__emulator/calls${since === undefined ? '' : `?since=${since}`}`);
  assert.equal(res.status, 200);
  return (await res.json()).calls as any[];
}

describe('the recorded calls of every emulator', () => {
  test('every emulator of the sandbox serves its record', () => {
    assert.equal(running.length, specs.length);
    assert.ok(running.length >= 10, `${running.length} emulators`);
  });

  test('a call is recorded with its method, path, repeated query values, body digest and status; secrets are not', async () => {
    for (const { spec, emulator } of running) {
      const body = JSON.stringify({ probe: spec.name });
      const res = await fetch(`${emulator.url}/__probe/nothing-here?part=snippet&part=status&access_token=SECRET-TOKEN`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer SECRET-BEARER' }, body,
      });
      await res.arrayBuffer();
      const seen = (await calls(emulator.url)).filter((c) => c.path === '/__probe/nothing-here');
      assert.equal(seen.length, 1, spec.name);
      const [call] = seen;
      assert.equal(call.method, 'POST', spec.name);
      assert.deepEqual(call.query, { part: ['snippet', 'status'], access_token: ['[redacted]'] }, spec.name);
      assert.equal(call.auth, 'bearer', spec.name);
      assert.equal(call.contentType, 'application/json', spec.name);
      assert.equal(call.bodySha256, createHash('sha256').update(body).digest('hex'), spec.name);
      assert.equal(call.bodyBytes, Buffer.byteLength(body), spec.name);
      assert.equal(call.status, res.status, spec.name);
      assert.ok(!JSON.stringify(await calls(emulator.url)).includes('SECRET'), `${spec.name}: no secret in the record`);
    }
  });

  test('a token carried in the path (a Telegram bot\'s, a Discord webhook\'s) is recorded redacted', async () => {
    const probes: Record<string, [path: string, recorded: string]> = {
      telegram: ['/botSECRET-BOT-TOKEN/getMe', '/bot[redacted]/getMe'],
      discord: ['/api/v10/webhooks/1576387215360000000/SECRET-WEBHOOK-TOKEN', '/api/v10/webhooks/1576387215360000000/[redacted]'],
    };
    for (const { spec, emulator } of running.filter(({ spec }) => probes[spec.name])) {
      const [path, recorded] = probes[spec.name]!;
      await (await fetch(`${emulator.url}${path}`)).arrayBuffer();
      const all = await calls(emulator.url);
      assert.ok(all.some((c) => c.path === recorded), `${spec.name}: ${JSON.stringify(all.map((c) => c.path))}`);
      assert.ok(!JSON.stringify(all).includes('SECRET'), `${spec.name}: no token in the record`);
    }
  });

  test('?since= answers only later calls, the record route is not itself recorded, and DELETE forgets', async () => {
    for (const { spec, emulator } of running) {
      const before = await calls(emulator.url);
      const last = before.at(-1)?.seq ?? 0;
      await (await fetch(`${emulator.url}/__probe/second`)).arrayBuffer();
      const later = await calls(emulator.url, last);
      assert.deepEqual(later.map((c) => [c.seq, c.method, c.path]), [[last + 1, 'GET', '/__probe/second']], spec.name);
      const del = await fetch(`${emulator.url}/__emulator/calls`, { method: 'DELETE' });
      assert.equal(del.status, 204, spec.name);
      assert.deepEqual(await calls(emulator.url), [], spec.name);
    }
  });
});
