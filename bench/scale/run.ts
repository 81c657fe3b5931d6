// `npm run bench:scale` (full, a few minutes) / `npm run bench:scale -- --smoke` (under a minute, for CI);
// `-- --only creates` or `-- --only scale` runs one part.
//
// Scale-out: does Crier's throughput grow with its processes, and what does a create cost? Crier is
// started as deployed (`crier api`, `crier worker` child processes); the load comes from several
// generator processes (bench/scale/generator.ts), their connections scaled with the API processes,
// and each worker publishes to its own X emulator process, so that neither the load generator nor
// the network is the bottleneck: every one of their processes' CPU is printed beside Crier's.
//
// Over a pending backlog (20,000 posts due in 30-60 days; 200,000 in a full run), so that plans are
// a live system's, not an empty database's:
//  1. scale.A+W: A API + W worker processes creating and publishing at once, for 1+1, 2+2 and 4+4
//     (the smoke run: 1+1 and 2+2), 20 connections per API process. Prints creates/s, published/s,
//     each process's CPU, PostgreSQL's (the backends serving those processes), and the lock waits per
//     statement (pg_stat_activity sampled every 20 ms). Every target is checked on the emulators:
//     published once, in one attempt.
//     Before the first 1+1 figure, idle.1+1: what its API and worker use with nothing to do.
//  2. creates.1api: one API process, 20 connections, no worker: p50/p99, and the CPU per create (the
//     API process + its PostgreSQL backends, from /proc) beside a raw single-row insert's (its client +
//     backends) measured just before (bench/ceilings.ts).
//  3. creates.Napi: as many API processes as the machine's cores allow (--apis N overrides), against
//     the raw insert ceiling.
//
// Goals (issue 32): on a machine of at least 8 cores, 4+4 reaches >= 3x of 1+1 for creates and for
// publishes, and creates.Napi >= 50% of the raw insert ceiling; with fewer cores those are printed as
// needing 8 cores, and adding processes must lose nothing (2+2 >= 0.9x of 1+1). On any machine:
// creates p99 < 20 ms at 20 connections, CPU per create <= 2.5x the raw insert's, and no load
// generator process above 70% of a core. A MISS is reported, not failed; exit 1 when something broke.
//
// Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL. CPU of PostgreSQL is read from /proc: it needs PostgreSQL on this machine.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/pool.ts';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import { createSecretBox } from '../../src/security/crypto.ts';
import { measureRawInserts, type RawInsertCeiling } from '../ceilings.ts';
import { createCleanups, runBenchmark } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { cpuSeconds, loadAverage, machineBusyShare } from '../proc.ts';
import { createXFixture, seedDuePosts, type PublishFixture } from '../publishing/fixture.ts';
import { startLockSampler, type LockWait } from '../publishing/locks.ts';
import { startProcesses, type Usage } from '../publishing/processes.ts';
import { verifyPublished, waitForTargets } from '../publishing/traffic.ts';
import { percentile, round } from '../stats.ts';
import { startEmulators, userRecorder, type Emulators } from './emulators.ts';
import { startGenerators, type LoadOutcome } from './generators.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false }, apis: { type: 'string' }, only: { type: 'string' } } });
/** `--only scale` or `--only creates`: one part of the run (both by default). */
const PARTS = ['scale', 'creates'] as const;
const only = flags.only === undefined ? [...PARTS] : flags.only.split(',');
for (const part of only) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only takes ${PARTS.join(', ')} (comma-separated), got ${JSON.stringify(part)}`);
const wanted = (part: (typeof PARTS)[number]) => only.includes(part);
const profile = flags.smoke
  ? { name: 'smoke', sets: [[1, 1], [2, 2]] as const, runs: 1, scaleSec: 4, createSec: 3, warmupSec: 1, idleSec: 3, backlog: 20_000 }
  : { name: 'full', sets: [[1, 1], [2, 2], [4, 4]] as const, runs: 2, scaleSec: 10, createSec: 10, warmupSec: 2, idleSec: 10, backlog: 200_000 };
const CORES = os.availableParallelism();
/** The many-core goals (>= 3x, >= 50% of the ceiling) apply from this many cores. */
const MANY_CORES = 8;
/**
 * API processes of the creates-at-scale figure: about 40% of the cores, as a create costs the API
 * and PostgreSQL about the same CPU and the generators need some too.
 */
const MAX_APIS = flags.apis ? Number(flags.apis) : Math.max(1, Math.floor(CORES * 0.4));
if (!(MAX_APIS >= 1 && Number.isInteger(MAX_APIS))) throw new Error(`--apis must be a positive integer, got ${flags.apis}`);
/** Connections per API process, as bench/run.ts's 20 for its one API process. */
const CONNECTIONS_PER_API = 20;
/** A generator process above this share of a core could be what limits a figure. */
const GENERATOR_CPU_LIMIT_PCT = 70;
const ACCOUNTS = 50;
const POOL_SIZE = loadConfig({ DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }, NETWORK_LIST).databasePoolSize;
const GOALS = { scaleRatio: 3, keepsRatio: 0.9, p99Ms: 20, cpuRatio: 2.5, ceilingShare: 0.5 };

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const log = (line: string) => process.stderr.write(`bench:scale: ${line}\n`);

// ---- results ---------------------------------------------------------------------------------

/** `loop_saturated_pct` (Crier's processes): the share of 50 ms windows its event loop was full (bench/publishing/processes.ts). */
interface ProcessCpu { label: string; cpu_pct: number; loop_saturated_pct?: number }

interface Figure {
  figure: string;
  creates_per_s: number;
  published_per_s: number | null;
  p50_ms: number;
  p99_ms: number;
  processes: ProcessCpu[];
  db_cpu_pct: number | null;
  /** CPU µs per create (in the scale figures: per post created and published): API, worker and PostgreSQL processes. */
  api_us_per_create: number;
  worker_us_per_create: number;
  db_us_per_create: number | null;
  /**
   * Posts created per transaction that wrote (all writers: in the scale figures the workers' too).
   * A create's CPU falls steeply with it: each statement and commit costs about the same for one
   * post as for ten.
   */
  posts_per_write_tx: number | null;
  /** Share of the lock samples in which some backend waited on a heavyweight (row or relation) lock. */
  row_lock_share: number;
  connections: number;
  load_average: string;
  lock_samples: number;
  /** The eight most frequent waits, and every heavyweight (Lock:*) one. */
  lock_waits: LockWait[];
}

type Verdict = 'PASS' | 'MISS' | `needs ≥ ${number} cores`;
interface Goal { goal: string; value: string; target: string; verdict: Verdict }

const figures: Figure[] = [];
const goals: Goal[] = [];
const problems: string[] = [];
let raw: RawInsertCeiling | undefined;
let idle: { processes: ProcessCpu[]; db_cpu_pct: number | null; seconds: number } | undefined;

function emit(figure: Figure): void {
  figures.push(figure);
  process.stdout.write(JSON.stringify(figure) + '\n');
}

function judge(goal: Goal): void {
  goals.push(goal);
  log(`${goal.verdict} ${goal.goal}: ${goal.value} (target ${goal.target})`);
}

const manyCores = (pass: boolean): Verdict => (CORES < MANY_CORES ? `needs ≥ ${MANY_CORES} cores` : pass ? 'PASS' : 'MISS');

// ---- the run ----------------------------------------------------------------------------------

const { cleanups, cleanUp } = createCleanups(log);

interface Env {
  db: Db;
  fixture: PublishFixture;
  emulators: Emulators;
  crierEnv: NodeJS.ProcessEnv;
}

async function main(): Promise<void> {
  log(`${profile.name} run on ${CORES} cores: ${profile.sets.map(([a, w]) => `${a}+${w}`).join(', ')} x ${profile.runs}, ${profile.scaleSec} s each; ` +
    `creates ${profile.createSec} s with 1 and ${MAX_APIS} API processes; load average ${loadAverage()}`);
  const busy = await machineBusyShare();
  if (busy > 0.2) log(`WARNING: ${(busy * 100).toFixed(0)}% of the machine's CPU was already in use before the bench started; figures will be low and noisy`);
  const { db, databaseUrl, tempDir } = await openBenchDatabase('crier_bench_scale', cleanups, log);
  const secretKey = randomBytes(32);
  const recorder = userRecorder();
  const fixture = await createXFixture(db, createSecretBox(secretKey), recorder, ACCOUNTS);
  const maxWorkers = wanted('scale') ? Math.max(...profile.sets.map(([, w]) => w)) : 0;
  const emulators = await startEmulators(maxWorkers, recorder.users, log);
  cleanups.push({ label: 'stop X emulators', run: () => emulators.stop() });
  log(`X emulators on ${emulators.urls.join(', ')}`);
  const crierEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: secretKey.toString('hex'),
    CRIER_DATA_DIR: path.join(tempDir, 'crier-data'),
    CRIER_X_API_URL: emulators.urls[0],
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    // As in bench/publishing/run.ts: per-key request limits off, X's quota raised but still applied.
    CRIER_RATE_LIMIT_ENABLED: 'false',
    CRIER_ACCOUNT_QUOTAS: 'x=1000000/15m',
  };
  const env: Env = { db, fixture, emulators, crierEnv };

  // A pending backlog (due in 30-60 days, never published here), so that the tables are not empty
  // when the figures' plans are made: as on a live system, not a fresh database's sequential scans.
  await seedDuePosts(db, fixture, { count: profile.backlog, tag: 'backlog', when: { daysAhead: [30, 60] }, keepIds: false });
  await steadyStatistics(db, true);
  // Alternated (1+1, 2+2, 4+4, then again in a full run): load from outside that comes and goes weighs on all.
  if (wanted('scale')) {
    for (let run = 1; run <= profile.runs; run++) for (const [apis, workers] of profile.sets) await scaleFigure(env, apis, workers, run);
    judgeScale();
  }
  if (!wanted('creates')) {
    judgeGenerators();
    return;
  }

  // Creates last: no worker runs after them to publish what they leave due.
  log(`ceiling: raw insert transactions (${CONNECTIONS_PER_API} loops, pool ${POOL_SIZE})`);
  raw = await measureRawInserts(databaseUrl, { poolSize: POOL_SIZE, loops: CONNECTIONS_PER_API, durationSec: profile.createSec, warmupSec: profile.warmupSec, orgId: fixture.orgId });
  const one = await createFigure(env, 1);
  const many = MAX_APIS > 1 ? await createFigure(env, MAX_APIS) : one;
  judgeCreates(raw, one, many);
  judgeGenerators();
}

/**
 * Fresh statistics: the bench grows the tables far faster than autovacuum looks, and a plan cached
 * in a backend (PL/pgSQL's too) is made again once ANALYZE changes its tables' statistics.
 */
async function steadyStatistics(db: Db, vacuum = false): Promise<void> {
  await db.query(`${vacuum ? 'VACUUM ' : ''}ANALYZE posts, containers, targets, attempts, target_parts`);
}

// ---- 1: creating and publishing at once ----------------------------------------------------------

async function scaleFigure(env: Env, apis: number, workers: number, run: number): Promise<void> {
  const name = `scale.${apis}+${workers}.run${run}`;
  await steadyStatistics(env.db);
  const set = await startProcesses({
    apis, workers, repoRoot, env: env.crierEnv, db: env.db, log, tag: `scale${apis}${workers}r${run}`,
    workerEnv: (i) => ({ CRIER_X_API_URL: env.emulators.urls[i - 1] }),
  });
  const generators = await startGenerators(Math.max(2, apis), log);
  try {
    if (run === 1 && apis === 1) await idleFigure(set);
    const urls = set.processes.filter((p) => p.url).map((p) => p.url!);
    const load = { apis: urls, connections: CONNECTIONS_PER_API * apis, apiKey: env.fixture.apiKey, accounts: env.fixture.accounts.map((a) => a.id), accountsPerPost: 1, keepIds: true };
    // Warm-up through the whole path (JIT, pools, caches), published before the figure starts.
    const warm = await generators.run({ ...load, durationSec: profile.warmupSec, tag: `warm-${name}` });
    checkAnswers(`${name} warm-up`, warm);
    await waitForTargets(env, `${name} warm-up`, warm.postIds, log);
    await steadyStatistics(env.db);
    log(`${name}: ${apis} API + ${workers} worker processes, ${load.connections} connections over ${generators.count} generator processes, ${profile.scaleSec} s`);
    const loadAverageBefore = loadAverage();
    const measured = await measuredWindow(env, set, env.emulators.pids.slice(0, workers), () => generators.run({ ...load, durationSec: profile.scaleSec, tag: name }));
    const created = measured.outcome;
    checkAnswers(name, created);
    await waitForTargets(env, name, created.postIds, log);
    const tweets = await env.emulators.tweets(`${name} `);
    await verifyPublished({ db: env.db, x: { tweets: () => tweets } }, name, created.postIds, name, problems, log);
    const inWindow = tweets.filter((t) => Date.parse(t.createdAt) <= created.lastAnsweredAt).length;
    emit(describe(name, created, measured, { published: inWindow / created.elapsedSec, loadAverage: loadAverageBefore, connections: load.connections, emulatorLabel: 'x-emulator' }));
  } finally {
    await generators.stop();
    await set.stop();
  }
}

/**
 * What an API and a worker cost doing nothing: polling that every idle process pays is paid again by
 * each process added, and comes out of the throughput of the busy ones on a small machine.
 */
async function idleFigure(set: Awaited<ReturnType<typeof startProcesses>>): Promise<void> {
  await settled(set);
  await set.mark();
  await sleep(profile.idleSec * 1000);
  const usage = await set.sample();
  idle = { processes: usage.processes.map((p) => ({ label: p.label, cpu_pct: round(p.cpuPct, 1) })), db_cpu_pct: usage.dbCpuPct === null ? null : round(usage.dbCpuPct, 1), seconds: profile.idleSec };
  process.stdout.write(JSON.stringify({ figure: 'idle.1+1', ...idle }) + '\n');
}

/**
 * Waits until the processes and their backends use under 10% of a core over half a second (at most
 * 30 s): a worker's start-up work (its first maintenance pass folds the backlog's counters) is not idling.
 */
async function settled(set: Awaited<ReturnType<typeof startProcesses>>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    await set.mark();
    await sleep(500);
    const usage = await set.sample();
    if (usage.processes.reduce((a, p) => a + p.cpuPct, 0) + (usage.dbCpuPct ?? 0) < 10) return;
  }
  log('idle.1+1: the processes were still busy after 30 s; measured anyway');
}

/** The measured part of a figure: CPU of every process from /proc and the lock waits, around `load`. */
async function measuredWindow(env: Env, set: Awaited<ReturnType<typeof startProcesses>>, otherPids: number[], load: () => Promise<LoadOutcome>) {
  await set.mark();
  const others0 = await Promise.all(otherPids.map((pid) => cpuSeconds(pid)));
  const t0 = performance.now();
  const locks = startLockSampler(env.db);
  const xids0 = await nextTransactionId(env.db);
  const outcome = await load();
  const writeTransactions = (await nextTransactionId(env.db)) - xids0;
  const usage = await set.sample();
  const others1 = await Promise.all(otherPids.map((pid) => cpuSeconds(pid)));
  const otherCpuPct = others1.map((c, i) => ((c - others0[i]!) / ((performance.now() - t0) / 1000)) * 100);
  const waits = await locks.stop();
  return { outcome, usage, otherCpuPct, waits, writeTransactions };
}

/**
 * The next transaction id, without taking one: the difference over a window is the number of
 * transactions that wrote (a read-only statement takes none), cluster-wide. Over a creates figure,
 * creates per write transaction is how many posts a group commit gathered.
 */
async function nextTransactionId(db: Db): Promise<number> {
  const { rows } = await db.query<{ xid: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xid');
  return Number(rows[0]!.xid);
}

function describe(
  name: string, outcome: LoadOutcome, measured: Awaited<ReturnType<typeof measuredWindow>>,
  extra: { published: number | null; loadAverage: string; connections: number; emulatorLabel?: string },
): Figure {
  const { usage, otherCpuPct, waits, writeTransactions } = measured;
  const perCreateUs = (pct: number) => (pct / 100) * usage.elapsedSec / outcome.responses * 1e6;
  const rolePct = (role: string) => usage.processes.filter((p) => p.label.startsWith(role)).reduce((a, p) => a + p.cpuPct, 0);
  const processes: ProcessCpu[] = [
    ...usage.processes.map((p) => ({ label: p.label, cpu_pct: round(p.cpuPct, 0), ...(p.loopSaturatedPct === undefined ? {} : { loop_saturated_pct: round(p.loopSaturatedPct, 0) }) })),
    ...otherCpuPct.map((pct, i) => ({ label: `${extra.emulatorLabel}${i + 1}`, cpu_pct: round(pct, 0) })),
    ...outcome.generatorCpuPct.map((pct, i) => ({ label: `generator${i + 1}`, cpu_pct: round(pct, 0) })),
  ];
  return {
    figure: name, creates_per_s: round(outcome.responses / outcome.elapsedSec, 1), published_per_s: extra.published === null ? null : round(extra.published, 1),
    p50_ms: round(percentile(outcome.latencies, 0.5), 2), p99_ms: round(percentile(outcome.latencies, 0.99), 2), processes,
    db_cpu_pct: usage.dbCpuPct === null ? null : round(usage.dbCpuPct, 0),
    api_us_per_create: round(perCreateUs(rolePct('api')), 0), worker_us_per_create: round(perCreateUs(rolePct('worker')), 0), db_us_per_create: usage.dbCpuPct === null ? null : round(perCreateUs(usage.dbCpuPct), 0),
    posts_per_write_tx: writeTransactions > 0 ? round(outcome.responses / writeTransactions, 2) : null,
    connections: extra.connections, load_average: extra.loadAverage, lock_samples: waits.samples, lock_waits: waits.top.filter((w, i) => i < 8 || w.wait.startsWith('Lock:')), row_lock_share: waits.heavyweightShare,
  };
}

/** Anything but a 200 is broken. */
function checkAnswers(name: string, outcome: LoadOutcome): void {
  const failed = outcome.responses - (outcome.codes['200'] ?? 0);
  if (failed) problems.push(`${name}: ${failed} of ${outcome.responses} creates did not answer 200 (${JSON.stringify(outcome.codes)}); first: ${outcome.firstFailure}`);
}

function judgeScale(): void {
  const mean = (apis: number, pick: (f: Figure) => number) => {
    const runs = figures.filter((f) => f.figure.startsWith(`scale.${apis}+`));
    return runs.reduce((a, f) => a + pick(f), 0) / runs.length;
  };
  const rate = (apis: number) => ({ create: mean(apis, (f) => f.creates_per_s), publish: mean(apis, (f) => f.published_per_s ?? 0) });
  const base = rate(1);
  const runs = profile.runs > 1 ? `mean of ${profile.runs} runs each, alternated` : 'one run each';
  for (const [apis] of profile.sets.slice(1)) {
    const r = rate(apis);
    const value = `creates ${r.create.toFixed(0)} vs ${base.create.toFixed(0)}/s = ${(r.create / base.create).toFixed(2)}x, ` +
      `published ${r.publish.toFixed(0)} vs ${base.publish.toFixed(0)}/s = ${(r.publish / base.publish).toFixed(2)}x (${runs})`;
    if (apis === 2) {
      const keeps = r.create / base.create >= GOALS.keepsRatio && r.publish / base.publish >= GOALS.keepsRatio;
      judge({ goal: 'adding processes loses nothing: 2+2 against 1+1', value, target: `≥ ${GOALS.keepsRatio}x each`, verdict: keeps ? 'PASS' : 'MISS' });
    } else if (apis === 4) {
      const grows = r.create / base.create >= GOALS.scaleRatio && r.publish / base.publish >= GOALS.scaleRatio;
      judge({ goal: 'scale-out: 4+4 against 1+1', value, target: `≥ ${GOALS.scaleRatio}x each on ≥ ${MANY_CORES} cores`, verdict: manyCores(grows) });
    }
  }
  if (!profile.sets.some(([a]) => a === 4)) judge({ goal: 'scale-out: 4+4 against 1+1', value: 'not run (smoke)', target: `≥ ${GOALS.scaleRatio}x each on ≥ ${MANY_CORES} cores`, verdict: manyCores(false) });
}

// ---- 2 and 3: creates alone, against the raw insert ceiling ---------------------------------------

async function createFigure(env: Env, apis: number): Promise<Figure> {
  const name = `creates.${apis}api`;
  await steadyStatistics(env.db);
  const set = await startProcesses({ apis, workers: 0, repoRoot, env: env.crierEnv, db: env.db, log, tag: `create${apis}` });
  const generators = await startGenerators(Math.max(2, apis), log);
  try {
    const urls = set.processes.map((p) => p.url!);
    // Two accounts per post, as bench/run.ts's create: a post, its container and two due targets.
    const load = { apis: urls, connections: CONNECTIONS_PER_API * apis, apiKey: env.fixture.apiKey, accounts: env.fixture.accounts.map((a) => a.id), accountsPerPost: 2, keepIds: false };
    checkAnswers(`${name} warm-up`, await generators.run({ ...load, durationSec: profile.warmupSec, tag: `warm-${name}` }));
    await steadyStatistics(env.db);
    log(`${name}: ${apis} API processes, ${load.connections} connections over ${generators.count} generator processes, ${profile.createSec} s`);
    const loadAverageBefore = loadAverage();
    const measured = await measuredWindow(env, set, [], () => generators.run({ ...load, durationSec: profile.createSec, tag: name }));
    checkAnswers(name, measured.outcome);
    const figure = describe(name, measured.outcome, measured, { published: null, loadAverage: loadAverageBefore, connections: load.connections });
    emit(figure);
    return figure;
  } finally {
    await generators.stop();
    await set.stop();
  }
}

function rawCpuUs(ceiling: RawInsertCeiling) {
  const client = (ceiling.clientCpuSeconds / ceiling.transactions) * 1e6;
  const db = ceiling.databaseCpuSeconds === null ? null : (ceiling.databaseCpuSeconds / ceiling.transactions) * 1e6;
  return { client, db, total: db === null ? null : client + db, clientPct: (ceiling.clientCpuSeconds / ceiling.elapsedSec) * 100 };
}

function judgeCreates(ceiling: RawInsertCeiling, one: Figure, many: Figure): void {
  judge({
    goal: `creates: p99 at ${one.connections} connections (1 API process)`, value: `${one.creates_per_s.toFixed(0)}/s, p50 ${one.p50_ms} ms, p99 ${one.p99_ms} ms`,
    target: `p99 < ${GOALS.p99Ms} ms`, verdict: one.p99_ms < GOALS.p99Ms ? 'PASS' : 'MISS',
  });
  const rawUs = rawCpuUs(ceiling);
  const createUs = one.db_us_per_create === null ? null : one.api_us_per_create + one.db_us_per_create;
  const ratio = createUs === null || rawUs.total === null ? null : createUs / rawUs.total;
  judge({
    goal: 'creates: CPU per create against a raw insert',
    value: `${createUs?.toFixed(0) ?? '?'} µs (API ${one.api_us_per_create} + PostgreSQL ${one.db_us_per_create ?? '?'}) vs ${rawUs.total?.toFixed(0) ?? '?'} µs ` +
      `(client ${rawUs.client.toFixed(0)} + PostgreSQL ${rawUs.db?.toFixed(0) ?? '?'}) = ${ratio?.toFixed(2) ?? '?'}x`,
    target: `≤ ${GOALS.cpuRatio}x`, verdict: ratio !== null && ratio <= GOALS.cpuRatio ? 'PASS' : 'MISS',
  });
  const share = many.creates_per_s / ceiling.tps;
  judge({
    goal: `creates with ${MAX_APIS} API process${MAX_APIS > 1 ? 'es' : ''} (${many.connections} connections) against the raw insert ceiling`,
    value: `${many.creates_per_s.toFixed(0)}/s vs ${ceiling.tps.toFixed(0)} tx/s = ${(share * 100).toFixed(1)}% (the ceiling's client at ${rawUs.clientPct.toFixed(0)}% of a core)`,
    target: `≥ ${GOALS.ceilingShare * 100}% on ≥ ${MANY_CORES} cores`, verdict: manyCores(share >= GOALS.ceilingShare),
  });
}

function judgeGenerators(): void {
  const busiest = figures.flatMap((f) => f.processes.filter((p) => p.label.startsWith('generator')).map((p) => ({ figure: f.figure, ...p })))
    .sort((a, b) => b.cpu_pct - a.cpu_pct)[0];
  if (!busiest) return;
  judge({
    goal: 'the load generator is never the bottleneck', value: `busiest generator process ${busiest.cpu_pct}% of a core (${busiest.figure})`,
    target: `every one < ${GENERATOR_CPU_LIMIT_PCT}%`, verdict: busiest.cpu_pct < GENERATOR_CPU_LIMIT_PCT ? 'PASS' : 'MISS',
  });
}

// ---- report -----------------------------------------------------------------------------------

function printTables(): void {
  const lines: string[] = [`\n${CORES} cores; load average at the end ${loadAverage()} (1 / 5 / 15 min)`];
  if (goals.length) {
    lines.push('', '| goal | value | target | |', '|---|---|---|---|');
    for (const g of goals) lines.push(`| ${g.goal} | ${g.value} | ${g.target} | ${g.verdict} |`);
  }
  if (figures.length) {
    lines.push('', '| figure | creates/s | published/s | create p50 / p99 ms | CPU % of one core per process [event loop saturated⁴] | PostgreSQL CPU % | CPU µs per post²: API + worker + PostgreSQL | posts per write transaction³ | load average before |',
      '|---|---:|---:|---|---|---:|---|---:|---|');
    for (const f of figures) {
      lines.push(`| ${f.figure} | ${f.creates_per_s.toFixed(0)} | ${f.published_per_s?.toFixed(0) ?? '—'} | ${f.p50_ms} / ${f.p99_ms} | ` +
        `${f.processes.map((p) => `${p.label} ${p.cpu_pct}${p.loop_saturated_pct === undefined ? '' : ` [${p.loop_saturated_pct}%]`}`).join(', ')} | ${f.db_cpu_pct ?? '—'} | ${f.api_us_per_create} + ${f.worker_us_per_create} + ${f.db_us_per_create ?? '?'} | ` +
        `${f.posts_per_write_tx ?? '—'} | ${f.load_average} |`);
    }
  }
  if (idle) {
    lines.push('', `Idle (1 API + 1 worker, nothing to do, ${idle.seconds} s): ${idle.processes.map((p) => `${p.label} ${p.cpu_pct}%`).join(', ')} of a core; ` +
      `their PostgreSQL backends ${idle.db_cpu_pct ?? '?'}%.`);
  }
  if (raw) {
    const us = rawCpuUs(raw);
    lines.push('', `Raw insert ceiling: ${raw.tps.toFixed(0)} tx/s (p50 ${raw.p50_ms.toFixed(2)} / p99 ${raw.p99_ms.toFixed(2)} ms), ` +
      `CPU per row ${us.total?.toFixed(0) ?? '?'} µs (client ${us.client.toFixed(0)} at ${us.clientPct.toFixed(0)}% of a core + PostgreSQL ${us.db?.toFixed(0) ?? '?'}).`);
  }
  if (figures.length) {
    lines.push('', '| figure | any row or relation lock (Lock:*) | lock waits per statement (share of samples¹) |', '|---|---:|---|');
    for (const f of figures) {
      const waits = f.lock_waits.map((w) => `${w.wait} ${(w.share * 100).toFixed(1)}% \`${w.statement}\``).join('; ') || 'none';
      lines.push(`| ${f.figure} (${f.lock_samples} samples) | ${(f.row_lock_share * 100).toFixed(1)}% | ${waits} |`);
    }
    lines.push('', '¹ pg_stat_activity sampled every 20 ms: the share of samples in which a backend waited (Lock: a heavyweight row or relation lock; LWLock: a shared-memory one, e.g. WALWrite, the commit\'s WAL flush) in that statement.',
      '² creates: the API processes and their backends per create; scale figures: every process of the figure per post created and published (the workers\' backends with PostgreSQL\'s).',
      '³ posts created over the transactions that wrote in the window (the difference of the next transaction id; the workers\' claims, steps and outcomes count in the scale figures): how many posts a group commit gathered.',
      '⁴ the share of 50 ms windows in which the process\'s main thread was on the CPU at least 90% of the window (/proc/<pid>/task/<pid>/schedstat): an event loop full in bursts delays everything it serves, whatever its average.');
  }
  process.stdout.write(lines.join('\n') + '\n');
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report: printTables });
