// A client command loads none of the server: main.ts routes it to src/cli/ before anything of
// Fastify, the database driver or the networks is imported.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CRIER_BIN } from '../helpers/process.ts';

const RECORDER = path.resolve(import.meta.dirname, '../helpers/loaded-modules.ts');

/** Runs `crier <args>` under the module recorder: its exit code and every module it loaded. */
async function loadedBy(args: string[]): Promise<{ code: number | null; loaded: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-client-loading-'));
  const file = path.join(dir, 'loaded.txt');
  try {
    const child = spawn(process.execPath, ['--import', RECORDER, CRIER_BIN, ...args], {
      // Port 9 (discard) on loopback: nothing listens, so the command ends unreachable after loading everything it needs.
      env: { ...process.env, CRIER_URL: 'http://127.0.0.1:9', CRIER_API_KEY: 'crier_unused', CRIER_TEST_LOADED_MODULES: file },
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, loaded: (await readFile(file, 'utf8')).split('\n').filter(Boolean) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const SRC = path.resolve(import.meta.dirname, '../../src');

test('a client command loads only node built-ins, main.ts and src/cli/ (no Fastify, no pg, no operator commands)', async () => {
  const { code, loaded } = await loadedBy(['post', '--to', 'someone', '--text', 'hello']);
  assert.equal(code, 3, 'unreachable: the command ran to its request');
  const ours = loaded.filter((url) => url.startsWith('file:')).map((url) => path.relative(SRC, new URL(url).pathname));
  // The recorder saw the client's own modules: an empty list would prove nothing.
  assert.ok(ours.includes(path.join('cli', 'post.ts')), ours.join('\n'));
  const outside = ours.filter((file) => file !== 'main.ts' && !file.startsWith('cli' + path.sep) && !file.endsWith('bin/crier.js'));
  assert.deepEqual(outside, [], 'modules loaded outside src/cli/');
  assert.ok(!ours.includes(path.join('cli', 'operator.ts')), 'the operator commands were not loaded');
  assert.deepEqual(loaded.filter((url) => url.includes('/node_modules/')), [], 'no package loaded');
});

test('an operator command still loads the server half (the router sends it there)', async () => {
  const { code, loaded } = await loadedBy(['help']);
  assert.equal(code, 0);
  assert.ok(loaded.some((url) => url.endsWith('/src/cli/operator.ts')));
  assert.ok(loaded.some((url) => url.includes('/node_modules/fastify/')), 'fastify is loaded by the operator half');
});
