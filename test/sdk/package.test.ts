// @crier/sdk as a user gets it: built and packed (npm pack runs the prepack build), installed from the
// tarball offline into a fresh project outside the repository, then used against a started Crier by
// a plain JavaScript program and by a TypeScript program that tsc checks against the installed
// declarations before Node runs it. Crier sits behind the TLS front of the media tests, so uploads
// go to the real signed URLs; the programs trust the front's certificate by NODE_EXTRA_CA_CERTS.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startMediaServer, type MediaHarness } from '../helpers/media.ts';
import { consumerTsconfig, JS_PROGRAM, TS_PROGRAM, type ProgramReport } from './package-programs.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const sdkDir = path.join(root, 'sdk');
const tscBin = path.join(root, 'node_modules/typescript/bin/tsc');

let work: string;
let project: string;
let tarball: string;
let packedFiles: string[];
let harness: MediaHarness;

/**
 * npm with no registry it could reach and an empty cache: whatever it installs comes from the tarball.
 * The npm_* variables of an enclosing `npm test` (its local prefix: this repository) are left out.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const outside = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...outside, npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: path.join(work, 'npm-cache'), npm_config_update_notifier: 'false' };
}

/**
 * Packs a copy of sdk/ (its build writes dist/ there, not in the working tree, so concurrent runs do
 * not share one dist/), laid out as in the repository: beside the node_modules holding tsc.
 */
async function pack(): Promise<void> {
  const copy = path.join(work, 'repo', 'sdk');
  await cp(sdkDir, copy, { recursive: true, filter: (source) => !/[/\\](dist|node_modules)$|\.tgz$/.test(source) });
  await symlink(path.join(root, 'node_modules'), path.join(work, 'repo', 'node_modules'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy, env: npmEnv() });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, packed!.filename);
  packedFiles = packed!.files.map((f) => f.path).sort();
}

async function createProject(): Promise<void> {
  project = path.join(work, 'app');
  await mkdir(project);
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'crier-sdk-user', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, env: npmEnv() });
  await writeFile(path.join(project, 'app.mjs'), JS_PROGRAM);
  await writeFile(path.join(project, 'app.ts'), TS_PROGRAM);
  await writeFile(path.join(project, 'tsconfig.json'), consumerTsconfig(path.join(root, 'node_modules/@types')));
  await writeFile(path.join(project, 'front-ca.pem'), harness.front.ca);
}

before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'crier-sdk-package-'));
  // The build (tsc) and Crier's start overlap: the test's time is mostly theirs. Loopback URLs are
  // allowed so that the programs' webhook may point at the front (127.0.0.1).
  [harness] = await Promise.all([startMediaServer({ CRIER_ALLOW_LOOPBACK_FETCH: 'true' }), pack()]);
  await createProject();
});
after(async () => {
  await harness?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs `file` in the project as a user of a fresh org with one X account; answers its report. */
async function runProgram(file: string, tag: string): Promise<{ report: ProgramReport; account: string }> {
  const org = await harness.server.createOrg();
  const account = await harness.server.addAccount(org, 'x', `sdk_pkg_${tag}`);
  const env = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: path.join(project, 'front-ca.pem'),
    CRIER_URL: harness.front.url,
    CRIER_API_KEY: org.key,
    CRIER_ACCOUNT: account.id,
    CRIER_HOOK_URL: `${harness.front.url}/hooks/crier`,
    CRIER_TAG: tag,
  };
  const { stdout } = await run(process.execPath, [file], { cwd: project, env });
  return { report: JSON.parse(stdout) as ProgramReport, account: account.id };
}

function assertReport(report: ProgramReport, account: string, tag: string): void {
  assert.deepEqual(report.validated, { dryRun: true, destinations: [[account, true]] });
  // The lost create was sent again with its first key; the keyed creates sent the given key; the
  // refused create a key of its own.
  const [lost, retried, keyed1, keyed2, refused] = report.created.keysSent;
  assert.equal(report.created.keysSent.length, 5, JSON.stringify(report.created.keysSent));
  assert.ok(lost && lost === retried, 'the retry carried the first attempt Idempotency-Key');
  assert.deepEqual([keyed1, keyed2], [report.keyed.key, report.keyed.key]);
  assert.equal(new Set([lost, report.keyed.key, refused]).size, 3, 'each create call has a key of its own');
  assert.equal(report.keyed.second, report.keyed.first, 'the same Idempotency-Key answered the same post');
  // One post per create: the dry run stored nothing, the retry and the repeated key added none.
  assert.deepEqual(report.listed, [`first post (${tag})`, `keyed (${tag})`]);
  assert.deepEqual(report.got, { id: report.created.id, content: `first post (${tag})` });
  assert.deepEqual(report.media, { status: 'ready', size: 70, served: 70 });
  assert.deepEqual(report.webhook, { secretPrefix: 'whsec_', listed: true });
  assert.deepEqual({ ...report.error, fields: [] }, { isCrierError: true, name: 'CrierError', status: 400, code: 'validation_error', fields: [] });
  assert.ok(report.error.fields.includes('containers[0].media[0].url'), JSON.stringify(report.error.fields));
  assert.deepEqual(report.unsigned, { ok: false, reason: 'missing X-Service-Signature' });
}

test('the tarball holds the built JavaScript and declarations, no sources, and installs offline with nothing else', async () => {
  assert.ok(packedFiles.includes('dist/index.js') && packedFiles.includes('dist/index.d.ts'), packedFiles.join(' '));
  assert.deepEqual(packedFiles.filter((file) => !file.startsWith('dist/')), ['README.md', 'package.json']);
  assert.deepEqual(packedFiles.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')), [], 'no TypeScript source: Node does not strip types under node_modules');
  const installed = JSON.parse(await readFile(path.join(project, 'node_modules/@crier/sdk/package.json'), 'utf8'));
  assert.equal(installed.dependencies, undefined, 'no runtime dependencies');
  assert.deepEqual((await readdir(path.join(project, 'node_modules'))).filter((name) => !name.startsWith('.')), ['@crier']);
  // Emitted imports name the emitted files: the build rewrote the sources' .ts specifiers.
  const client = await readFile(path.join(project, 'node_modules/@crier/sdk/dist/client.js'), 'utf8');
  assert.match(client, /from "\.\/http\.js"/);
});

test('a plain JavaScript program: posts, dry run, media upload, webhooks, typed errors and a retried create', async () => {
  const { report, account } = await runProgram('app.mjs', 'js');
  assertReport(report, account, 'js');
});

test('a TypeScript program type-checks against the installed declarations and runs as is', async () => {
  await run(process.execPath, [tscBin, '-p', 'tsconfig.json'], { cwd: project }).catch((error: { stdout?: string }) => {
    assert.fail(`tsc refused the program:\n${error.stdout}`);
  });
  const { report, account } = await runProgram('app.ts', 'ts');
  assertReport(report, account, 'ts');
});

test('CommonJS code can require the package (Node loads its ES modules with require)', async () => {
  await writeFile(path.join(project, 'app.cjs'), "const { Crier, CrierError, verifyWebhook } = require('@crier/sdk');\nconsole.log(JSON.stringify([typeof Crier, typeof CrierError, typeof verifyWebhook]));\n");
  const { stdout, stderr } = await run(process.execPath, ['app.cjs'], { cwd: project });
  assert.deepEqual(JSON.parse(stdout), ['function', 'function', 'function']);
  assert.equal(stderr, '', 'no warning');
});
