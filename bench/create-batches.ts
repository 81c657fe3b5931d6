// `npm run bench:batches` (about a minute) / `-- --smoke` (a few seconds, for CI).
//
// What a create costs PostgreSQL by the size of its group commit, without HTTP: the API's own batch
// write (posts/create.ts writeCreates: the accounts' statement, then the one statement that writes
// the posts with their container and two targets, the counters' triggers included), called in a loop
// on one connection with batches of 1, 3 and 10 posts over a table already holding 50,000 (20,000 in
// the smoke run). It prints, per batch size, the backend's CPU per post and per batch (from /proc:
// PostgreSQL must run on this machine), this process's CPU per post (the driver's side of the round
// trips, which `crier api` pays too) and the wall time; then the same with the counters' triggers
// switched off in this throwaway database, to show their share.
//
// Why: bench:scale's CPU per create moves with how many posts a group commit gathers (it prints
// posts per write transaction), and that depends on the machine: on 2 cores a batch held ~7 posts, on
// 16 cores far fewer. This says what a batch of each size costs, so a figure from one machine can be
// read on another.
//
// Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type BatchSession } from '../src/db/group-commit.ts';
import { writeCreates, type CreateSubmission } from '../src/posts/create.ts';
import { parseCreateBody } from '../src/posts/validate.ts';
import { createSecretBox } from '../src/security/crypto.ts';
import { STRICT_FETCH_POLICY } from '../src/validation/fetched-url.ts';
import { createCleanups, runBenchmark } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { cpuSeconds, loadAverage } from './proc.ts';
import { createFixture, type Fixture } from './seed.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const profile = flags.smoke ? { backlog: 20_000, postsPerSize: 600 } : { backlog: 50_000, postsPerSize: 6_000 };
const SIZES = [1, 3, 10];
const log = (line: string) => process.stderr.write(`bench:batches: ${line}\n`);
const problems: string[] = [];
const { cleanups, cleanUp } = createCleanups(log);

interface Row {
  counters: 'on' | 'off';
  size: number;
  pgUsPerPost: number;
  pgUsPerBatch: number;
  clientUsPerPost: number;
  wallUsPerPost: number;
}
const rows: Row[] = [];

async function main(): Promise<void> {
  log(`${flags.smoke ? 'smoke' : 'full'} run; load average ${loadAverage()}`);
  const { db } = await openBenchDatabase('crier_bench_batches', cleanups, log);
  const fixture = await createFixture(db, createSecretBox(randomBytes(32)));
  const client = await db.connect();
  cleanups.push({ label: 'release the connection', run: async () => client.release() });
  const { rows: [backend] } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // Its batches never open a transaction (no keys, no queue slots, no approval).
  const session: BatchSession = { client, begin: async () => void (await client.query('BEGIN')), open: false };
  const write = (size: number) => writeBatch(session, fixture, size);

  for (let written = 0; written < profile.backlog; written += 50) await write(50);
  await client.query('VACUUM ANALYZE posts, containers, targets, post_counts');
  log(`${profile.backlog} posts written before the figures`);

  for (const counters of ['on', 'off'] as const) {
    if (counters === 'off') {
      await client.query('ALTER TABLE posts DISABLE TRIGGER post_counts_insert');
      await client.query('ALTER TABLE targets DISABLE TRIGGER post_counts_insert');
    }
    for (const size of SIZES) rows.push(await measureSize(backend!.pid, write, size, counters));
  }
}

/** `postsPerSize` posts in batches of `size`, after a few batches of warm-up (plans, caches). */
async function measureSize(backendPid: number, write: (size: number) => Promise<void>, size: number, counters: Row['counters']): Promise<Row> {
  for (let i = 0; i < 20; i++) await write(size);
  const batches = Math.ceil(profile.postsPerSize / size);
  const pg0 = await cpuSeconds(backendPid);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < batches; i++) await write(size);
  const wallMs = performance.now() - t0;
  const clientCpu = process.cpuUsage(client0);
  const pgSeconds = (await cpuSeconds(backendPid)) - pg0;
  const posts = batches * size;
  const row = {
    counters, size,
    pgUsPerPost: (pgSeconds / posts) * 1e6, pgUsPerBatch: (pgSeconds / batches) * 1e6,
    clientUsPerPost: (clientCpu.user + clientCpu.system) / posts, wallUsPerPost: (wallMs * 1000) / posts,
  };
  process.stdout.write(JSON.stringify({ figure: `batch.${size}.counters_${counters}`, ...roundAll(row) }) + '\n');
  return row;
}

/** One group commit of `size` creates as the API writes them (no key: one statement, its own transaction). */
async function writeBatch(session: BatchSession, fixture: Fixture, size: number): Promise<void> {
  const now = new Date();
  const body = { accounts: [fixture.x.id, fixture.bluesky.id], content: 'bench' };
  const submissions: CreateSubmission[] = Array.from({ length: size }, () => ({
    orgId: fixture.orgId, key: undefined, body, parsed: parseCreateBody(body, now, STRICT_FETCH_POLICY), now,
  }));
  const results = await writeCreates(session, submissions);
  const failed = results.find((r) => !r.ok);
  if (failed) throw new Error(`a create failed: ${String((failed as { error: unknown }).error)}`);
}

function roundAll(row: Row): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v) : v]));
}

function report(): void {
  if (!rows.length) return;
  const lines = ['', '| counters\' triggers | posts per batch | PostgreSQL µs per post | PostgreSQL µs per batch | client µs per post | wall µs per post |', '|---|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    lines.push(`| ${r.counters} | ${r.size} | ${r.pgUsPerPost.toFixed(0)} | ${r.pgUsPerBatch.toFixed(0)} | ${r.clientUsPerPost.toFixed(0)} | ${r.wallUsPerPost.toFixed(0)} |`);
  }
  const at = (counters: Row['counters'], size: number) => rows.find((r) => r.counters === counters && r.size === size);
  const one = at('on', 1);
  const ten = at('on', 10);
  if (one && ten) {
    // Two points of cost = fixed + n × each: what a batch costs whatever it holds, and what each post adds.
    const each = (ten.pgUsPerBatch - one.pgUsPerBatch) / 9;
    lines.push('', `PostgreSQL per batch ≈ ${(one.pgUsPerBatch - each).toFixed(0)} µs + ${each.toFixed(0)} µs per post (from the batches of 1 and 10).`);
  }
  const offOne = at('off', 1);
  if (one && offOne) lines.push(`The counters' triggers: ${(one.pgUsPerBatch - offOne.pgUsPerBatch).toFixed(0)} µs of a batch of 1, ${ten && at('off', 10) ? (ten.pgUsPerBatch - at('off', 10)!.pgUsPerBatch).toFixed(0) : '?'} µs of a batch of 10.`);
  lines.push(`Load average at the end: ${loadAverage()}.`);
  process.stdout.write(lines.join('\n') + '\n');
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report });
