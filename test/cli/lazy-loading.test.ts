// Heavy packages are loaded on first use (src/lazy.ts): an idle server has not loaded them, a broken
// installation still fails the start naming the package, and a package that fails to load fails
// the use that needed it with its name.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from '../../src/db/embedded.ts';
import { checkInstalled, lazy, LAZY_PACKAGES } from '../../src/lazy.ts';
import { ModuleLoadError, OperatorError } from '../../src/core/errors.ts';
import { createTestDatabase } from '../helpers/harness.ts';
import { CRIER_BIN } from '../helpers/process.ts';

const RECORDER = path.resolve(import.meta.dirname, '../helpers/loaded-modules.ts');

/** Runs `crier start` with the module recorder, calls `visit` once it is running, stops it, and returns what it loaded. */
async function modulesLoadedBy(env: Record<string, string>, visit: (base: string) => Promise<void>): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-lazy-'));
  const file = path.join(dir, 'loaded.txt');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', RECORDER, CRIER_BIN, 'start'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CRIER_DATA_DIR: dir, CRIER_TEST_LOADED_MODULES: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Crier is running')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`crier exited (${code}) before running:\n${output}`)));
    });
    await visit(`http://127.0.0.1:${port}`);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  } finally {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

const fromPackage = (urls: string[], name: string) => urls.filter((url) => url.includes(`/node_modules/${name}/`));

test('an idle server (API and worker) that has answered requests has loaded none of the packages loaded on first use', async () => {
  const databaseUrl = await createTestDatabase();
  const loaded = await modulesLoadedBy({ DATABASE_URL: databaseUrl }, async (base) => {
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    assert.equal((await fetch(`${base}/v1/posts`)).status, 401);
    assert.equal((await fetch(`${base}/openapi.json`)).status, 200);
  });
  // The recorder saw the server's own modules: an empty list would prove nothing.
  assert.ok(fromPackage(loaded, 'fastify').length > 0, 'the recorder saw fastify load');
  assert.ok(loaded.some((url) => url.endsWith('/src/runtime.ts')), 'the recorder saw src/runtime.ts load');
  for (const name of LAZY_PACKAGES) assert.deepEqual(fromPackage(loaded, name), [], `${name} is not loaded`);
  assert.deepEqual(loaded.filter((url) => url.includes('/emulators/')), [], 'no emulator is loaded without --sandbox');
});

test('with CRIER_METRICS_TOKEN the metrics library is loaded at start', async () => {
  const databaseUrl = await createTestDatabase();
  const loaded = await modulesLoadedBy({ DATABASE_URL: databaseUrl, CRIER_METRICS_TOKEN: 'metrics-token-for-the-scraper-0123' }, async (base) => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-the-scraper-0123' } });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /crier_http_request_duration_seconds/);
  });
  assert.ok(fromPackage(loaded, 'prom-client').length > 0);
});

test('a package missing from the installation fails the start, naming it', () => {
  assert.doesNotThrow(() => checkInstalled());
  assert.throws(() => checkInstalled(['@atproto/api', 'crier-no-such-package']), (error: Error) => {
    assert.ok(error instanceof OperatorError);
    assert.match(error.message, /crier-no-such-package cannot be found; run npm ci/);
    assert.doesNotMatch(error.message, /@atproto\/api/);
    return true;
  });
});

test('a lazy module loads once for concurrent first uses; a failed load names the package and is tried again', async () => {
  let calls = 0;
  const ok = lazy('a package', async () => ({ n: ++calls }));
  const [a, b] = await Promise.all([ok(), ok()]);
  assert.equal(a, b);
  assert.equal(calls, 1);

  let attempts = 0;
  const missing = 'crier-no-such-package';
  const flaky = lazy('crier-no-such-package (what it is for)', async () => {
    attempts++;
    if (attempts === 1) return import(missing);
    return 'loaded';
  });
  await assert.rejects(flaky(), (error: Error) => {
    assert.ok(error instanceof ModuleLoadError);
    assert.match(error.message, /^Crier could not load crier-no-such-package \(what it is for\): Cannot find package 'crier-no-such-package'/);
    assert.ok(error.cause instanceof Error);
    return true;
  });
  assert.equal(await flaky(), 'loaded');
  assert.equal(attempts, 2);
});
