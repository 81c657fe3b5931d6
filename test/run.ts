// `npm test`: gives the suite a real PostgreSQL — TEST_DATABASE_URL when set, else a throwaway
// embedded one — migrates a template database once, then runs every test file with node:test.
// Each test file clones the template into a database of its own (fast, and isolated).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ensureDatabase } from '../src/db/database.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';

const root = path.resolve(import.meta.dirname, '..');
const requested = process.argv.slice(2);

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.includes(`${path.sep}peers${path.sep}`))
    .sort();
}

let adminUrl = process.env.TEST_DATABASE_URL;
let stopEmbedded: (() => Promise<void>) | undefined;
let tempDir: string | undefined;
if (!adminUrl) {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'crier-test-'));
  const server = await startEmbeddedPostgres(tempDir);
  adminUrl = server.url;
  stopEmbedded = server.stop;
}
const template = `crier_template_${process.pid}`;
const templateUrl = await ensureDatabase(adminUrl, template);
const pool = createPool(templateUrl, 2);
await migrate(pool);
await pool.end();

/**
 * The files that take longest, started first so that none of them begins near the end and runs on
 * alone (measured 2026-11-29 with the file timings this script prints; a file missing from the list
 * only starts in its alphabetical place).
 */
const START_FIRST = [
  'publishing/crash', 'sandbox/walk-through', 'networks/pinterest/crash', 'sandbox/cross-post', 'networks/youtube/crash',
  'posts/judgement', 'networks/threads/crash', 'networks/linkedin/crash', 'posts/fuzz', 'networks/threads/publish',
  'networks/reddit/crash',
].map((name) => path.join(root, 'test', `${name}.test.ts`));
const byDuration = (a: string, b: string) => rank(a) - rank(b);
const rank = (file: string) => (START_FIRST.includes(file) ? START_FIRST.indexOf(file) : START_FIRST.length);
const files = requested.length ? requested : (await testFiles(path.join(root, 'test'))).sort(byDuration);
// Test files run this many at a time (CRIER_TEST_CONCURRENCY). Most of a file's time is spent waiting
// (servers starting, leases lapsing, networks' processing polled): on the 2-core CI machine two at a
// time took 15 min 25 s, four at a time 7 min 22 s with the cores 73% busy (2026-11-29, 2,600 tests);
// later that day, 3,159 tests on the machine's PostgreSQL: four at a time 6 min 3 s, five 5 min 22 s.
const concurrency = Number(process.env.CRIER_TEST_CONCURRENCY ?? 5);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`CRIER_TEST_CONCURRENCY must be a whole number of 1 or more, not "${process.env.CRIER_TEST_CONCURRENCY}"`);
// Every test file is a process of its own that strips the types of the same few hundred modules: with
// Node's compile cache it spends about 0.2 s of CPU less starting (0.52 s -> 0.22 s of user time to
// import the publishing stack, measured 2026-11-29), which on two cores is most of a minute a run.
// Kept in the temp folder between runs; NODE_COMPILE_CACHE chooses another, NODE_DISABLE_COMPILE_CACHE=1 none.
const compileCache = process.env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), 'crier-test-compile-cache');
// Each file's wall time (file-timings.ts, loaded first in every test process): which files set the suite's time.
const timings = path.join(await mkdtemp(path.join(os.tmpdir(), 'crier-test-timings-')), 'files.jsonl');
const preload = `--import=${pathToFileURL(path.join(import.meta.dirname, 'file-timings.ts')).href}`;
const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=120000', ...files], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
    CRIER_TEST_TIMINGS: timings,
    NODE_COMPILE_CACHE: compileCache,
    CRIER_TEST_ADMIN_URL: adminUrl,
    CRIER_TEST_TEMPLATE: template,
  },
});
const code: number = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
if (files.length > 1) await printSlowest(timings, 20);
await rm(path.dirname(timings), { recursive: true, force: true });

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(template)} WITH (FORCE)`).catch(() => {});
await admin.end();
await stopEmbedded?.();
if (tempDir) await rm(tempDir, { recursive: true, force: true });
process.exit(code);

/** The files that took longest (wall time, each in its own process): where the suite's minutes go. */
async function printSlowest(report: string, count: number): Promise<void> {
  const lines = (await readFile(report, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const files = lines.map((line) => JSON.parse(line) as { file: string; seconds: number; cpuSeconds: number }).sort((a, b) => b.seconds - a.seconds);
  if (!files.length) return;
  const cpu = files.reduce((sum, f) => sum + f.cpuSeconds, 0);
  console.log(`\nthe ${Math.min(count, files.length)} slowest of ${files.length} test files (wall time, ${concurrency} files at a time; CPU of each file's processes but PostgreSQL's, ${cpu.toFixed(0)} s for all files):`);
  for (const { file, seconds, cpuSeconds } of files.slice(0, count)) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${cpuSeconds.toFixed(1).padStart(5)} s CPU  ${path.relative(root, file)}`);
}
