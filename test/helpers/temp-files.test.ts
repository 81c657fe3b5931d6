// The helpers that make certificates (the local HTTPS servers, and the stacks that hand their CA to
// Crier as CRIER_EXTRA_CA_FILE) leave nothing in the temp directory once closed: a full run of the
// suite used to leave ~60 certificate files there.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startHttpsServer } from './https-server.ts';
import { startPublishingStack } from './publishing.ts';
import { startWebhookStack } from './webhooks.ts';

let tempDir: string;
const originalTmpdir = process.env.TMPDIR;

// os.tmpdir() reads TMPDIR on every call: the helpers write into a folder of this test's own.
before(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'crier-temp-files-'));
  process.env.TMPDIR = tempDir;
});
after(async () => {
  if (originalTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmpdir;
  await rm(tempDir, { recursive: true, force: true });
});

const leftInTemp = () => readdirSync(tempDir, { recursive: true });

test('an HTTPS test server leaves no certificate or CA file behind, and its CA file is its certificate', async () => {
  const server = await startHttpsServer();
  const caFile = await server.caFile();
  assert.ok(caFile.startsWith(tempDir), 'written under the temp dir');
  assert.equal(await server.caFile(), caFile, 'one file per server');
  assert.equal(readFileSync(caFile, 'utf8'), server.ca);
  await server.close();
  assert.deepEqual(leftInTemp(), []);
});

test('the webhook and publishing stacks, which give Crier the CA as a file, leave nothing behind once closed', async () => {
  const webhooks = await startWebhookStack();
  assert.ok(webhooks.env.CRIER_EXTRA_CA_FILE?.startsWith(tempDir));
  await webhooks.close();
  const publishing = await startPublishingStack();
  assert.ok(publishing.env.CRIER_EXTRA_CA_FILE?.startsWith(tempDir));
  await publishing.close();
  assert.deepEqual(leftInTemp(), []);
});

test('a test process that ends without closing its server still removes the CA file at exit', () => {
  const script = `import { startHttpsServer } from ${JSON.stringify(path.join(import.meta.dirname, 'https-server.ts'))};
const server = await startHttpsServer();
console.log(await server.caFile());
process.exit(0);`;
  const caFile = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: tempDir }, encoding: 'utf8' }).trim();
  assert.ok(caFile.startsWith(tempDir), caFile);
  assert.deepEqual(leftInTemp(), []);
});
