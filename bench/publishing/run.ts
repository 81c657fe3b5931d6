// `npm run bench:publish` (full, a few minutes) / `npm run bench:publish -- --smoke` (short, for CI).
//
// Measures Crier's publishing engine end to end, with Crier started as child processes exactly as
// deployed (`crier worker`, `crier api`) and the X emulator (in this process) as the network. Each
// figure is printed beside its ceiling from the same run and its goal (the performance issue), with
// PASS or MISS:
//
//  1. publish.drain.workers_N: N due targets drained by 1 and 2 worker processes, targets/s, against
//     the emulator's own ceiling (a plain loop of POST /2/tweets at the workers' total concurrency).
//     Goal: >= 80% of the ceiling. Beside it, where a destination's time went (p50 / p99 ms): claim to
//     quota admission, admission to the emulator's tweet, tweet to the recorded outcome; and what
//     could hold a destination besides Crier's own stages: this process's event-loop delay (the
//     emulator's, for the drain and for its ceiling) and, per Crier process, the share of 50 ms
//     windows in which its event loop was saturated (a worker busy in bursts delays every stage).
//  2. publish.under_load: an API process creating posts as fast as 20 connections can, one worker
//     publishing them; the due backlog is sampled throughout. Goal: it does not grow.
//  3. schedule.single: posts scheduled one at a time among a pending backlog (1,000,000 in the full
//     run), each alone at its own time. Goal: lateness p99 < 1 s.
//  4. schedule.burst: a burst all due in the same second over that backlog, two workers. Goal:
//     lateness p99 <= 1.5 x burst / ceiling + 1 s.
// Scale-out (API and worker processes added together, with a load that is never the bottleneck) is
// bench/scale/run.ts's (`npm run bench:scale`).
//
// Every published target is checked against the emulator: one tweet each, one attempt each. Prints
// one JSON line per figure on stdout, then Markdown tables; progress goes to stderr. Exits 1 when
// something broke (a target not published or published twice, a failed create, a crash); a MISS is
// reported, not failed.
//
// Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL in a temporary directory. Either way a fresh database of its own, dropped at the end.
import { createCleanups, runBenchmark } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startXEmulator, type XEmulator } from '../../emulators/x/server.ts';
import { loadConfig } from '../../src/config.ts';
import { NETWORK_LIST } from '../../src/networks/registry.ts';
import type { Db } from '../../src/db/pool.ts';
import { createSecretBox } from '../../src/security/crypto.ts';
import { machineBusyShare } from '../proc.ts';
import { percentile, round } from '../stats.ts';
import { measureEmulatorCeiling } from './ceiling.ts';
import { createXFixture, seedDuePosts, type PublishFixture } from './fixture.ts';
import { startProcesses, type ProcessSet, type Usage } from './processes.ts';
import { createPosts, verifyPublished, waitForTargets } from './traffic.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false }, only: { type: 'string' } } });
/** `--only drain,schedule`: run those figures alone (with the ceilings they are read against). */
const only = flags.only ? new Set(flags.only.split(',')) : undefined;
const wanted = (figure: 'drain' | 'load' | 'schedule') => !only || only.has(figure);
const profile = flags.smoke
  ? { name: 'smoke', drain: 5_000, underLoadSec: 8, backlog: 20_000, singles: 6, burst: 2_000 }
  : { name: 'full', drain: 20_000, underLoadSec: 30, backlog: 1_000_000, singles: 20, burst: 10_000 };
/** Accounts the posts are spread over (round robin), each its own emulator user and token. */
const ACCOUNTS = 50;
/** Concurrent POST /v1/posts loops, as bench/run.ts's CONNECTIONS. */
const CREATE_CONNECTIONS = 20;
/** Destinations one worker has in flight, parsed the way Crier parses it (same default), passed on to the workers. */
const CONCURRENCY = loadConfig({ CRIER_PUBLISH_CONCURRENCY: process.env.CRIER_PUBLISH_CONCURRENCY }, NETWORK_LIST).publishing.concurrency;
/** Ceiling runs post at least this many tweets, so that a smoke run's ceiling is not a blink. */
const MIN_CEILING_TWEETS = 6_000;
/**
 * Due targets are written at least this long before they are due (the workers find them by their own
 * timers), plus the time writing them is expected to take, from the last seed (dueAfterSeeding).
 */
const DUE_LEAD_MS = 2_000;
/** The last seed's milliseconds per target, and its ANALYZE's (on 16 cores, 20,000 took 2.8 s in all: over a fixed 2 s lead). */
let seedMsPerTarget = 0.1;
let analyzeMs = 200;

/** When `count` targets written from now are due: the lead, plus 1.5 times their expected writing. */
function dueAfterSeeding(count: number): Date {
  return new Date(Date.now() + DUE_LEAD_MS + 1.5 * (count * seedMsPerTarget + analyzeMs));
}

/** Seeds `count` due targets at `at` with steady statistics, learning how long writing takes. */
async function seedDue(env: Env, count: number, tag: string, at: Date) {
  const t0 = performance.now();
  const seeded = await seedDuePosts(env.db, env.fixture, { count, tag, when: { at } });
  const t1 = performance.now();
  await steadyStatistics(env.db);
  seedMsPerTarget = (t1 - t0) / count;
  analyzeMs = performance.now() - t1;
  return seeded;
}

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const log = (line: string) => process.stderr.write(`bench:publish: ${line}\n`);

// ---- results ---------------------------------------------------------------------------------

interface Figure {
  figure: string;
  [key: string]: unknown;
}

interface Goal {
  goal: string;
  figure: string;
  value: string;
  ceiling: string;
  ratio: string;
  target: string;
  pass: boolean;
}

const figures: Figure[] = [];
const goals: Goal[] = [];
const problems: string[] = [];

function emit(figure: Figure): void {
  figures.push(figure);
  process.stdout.write(JSON.stringify(figure) + '\n');
}

function judge(goal: Goal): void {
  goals.push(goal);
  log(`${goal.pass ? 'PASS' : 'MISS'} ${goal.goal}: ${goal.value} (target ${goal.target})`);
}

const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const usageSummary = (u: Usage) => ({
  processes: u.processes.map((p) => ({
    label: p.label, cpu_pct: round(p.cpuPct, 0), peak_rss_mb: round(p.peakRssMb, 1),
    ...(p.loopSaturatedPct === undefined ? {} : { loop_saturated_pct: round(p.loopSaturatedPct, 0) }),
  })),
  db_cpu_pct: u.dbCpuPct === null ? null : round(u.dbCpuPct, 0),
});

// ---- resources, released in reverse order whatever happens ------------------------------------

const { cleanups, cleanUp } = createCleanups(log);

export interface Env {
  db: Db;
  x: XEmulator;
  fixture: PublishFixture;
  crierEnv: NodeJS.ProcessEnv;
}

async function main(): Promise<void> {
  log(`${profile.name} run: drain ${profile.drain} targets; under load ${profile.underLoadSec} s; ${profile.singles} single posts and a burst of ` +
    `${profile.burst} over ${profile.backlog} pending; ${ACCOUNTS} X accounts; ${CONCURRENCY} destinations in flight per worker`);
  const busy = await machineBusyShare();
  if (busy > 0.2) log(`WARNING: ${(busy * 100).toFixed(0)}% of the machine's CPU was already in use before the bench started; figures will be low and noisy`);
  const { db, databaseUrl, tempDir } = await openBenchDatabase('crier_bench_publish', cleanups, log);

  // The emulator's default limits (100 posts per user per 15 min) would throttle the bench. Its
  // duplicate check is off: Crier adopts a "duplicate content" refusal as its own earlier post, so
  // with it on a target published twice would be hidden; off, it shows up as a second tweet.
  const x = await startXEmulator({
    rateLimits: { 'POST /2/tweets': 1e9, 'GET /2/users/:id/tweets': 1e9, 'GET /2/users/me': 1e9 },
    duplicateWindowMs: 0,
  });
  cleanups.push({ label: 'stop X emulator', run: () => x.close() });

  // Workers decrypt account tokens with CRIER_SECRET_KEY: seal them under the same key.
  const secretKey = randomBytes(32);
  const fixture = await createXFixture(db, createSecretBox(secretKey), x, ACCOUNTS);
  const crierEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: secretKey.toString('hex'),
    CRIER_DATA_DIR: path.join(tempDir, 'crier-data'), // nothing lands in the repo's ./data
    CRIER_X_API_URL: x.url,
    CRIER_PUBLISH_CONCURRENCY: String(CONCURRENCY),
    // Per-key request limits would turn the bench's creates into 429s: they are the API's business
    // (bench/run.ts), not the publishing path's, so they are off here.
    CRIER_RATE_LIMIT_ENABLED: 'false',
    // X's real quota (100 tweets per 15 minutes per account) would hold the bench's 50 accounts to
    // 5,000 tweets per window; the bench measures the engine, so the quota is raised out of the way
    // but still applied: each destination pays its admission as it would in production.
    CRIER_ACCOUNT_QUOTAS: 'x=1000000/15m',
  };
  const env: Env = { db, x, fixture, crierEnv };
  log(`X emulator on ${x.url}`);

  // The emulator's ceiling is measured right before and right after each figure read against it, and
  // the figure compared with their mean: load from outside the bench drifts during a run.
  if (wanted('drain')) {
    for (const workers of [1, 2]) {
      const before = await ceilingFigure(env, workers, 'before');
      await drainFigure(env, workers, before, () => ceilingFigure(env, workers, 'after'));
    }
  }
  if (wanted('load')) await underLoadFigure(env);
  if (wanted('schedule')) await scheduleFigures(env, (when) => ceilingFigure(env, 2, when));
}

/**
 * The bench grows tables by tens of thousands of rows in seconds, far faster than autovacuum (one
 * look a minute) refreshes the planner's statistics on a live system: plans made for the empty tables
 * of a fresh database (sequential scans) would be measured instead of the steady state's index plans.
 */
async function steadyStatistics(db: Db, vacuum = false): Promise<void> {
  await db.query(`${vacuum ? 'VACUUM ' : ''}ANALYZE posts, containers, targets, attempts, target_parts`);
}

function cpuPct(before: NodeJS.CpuUsage, t0: number): number {
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - t0)) * 100;
}

/**
 * The event-loop delay of this process (the X emulator, the ceiling's loops, the drain's polling)
 * over what `run` does: p50 / p99 / max in ms. A delay there is time every tweet waits before the
 * emulator answers, for the drain and its ceiling alike; it says whether a figure was the emulator's
 * process, not Crier's (on 16 cores the one-worker drain held each destination ~100 ms while
 * neither the worker nor PostgreSQL was busy).
 */
async function withLoopDelay<T>(run: () => Promise<T>): Promise<{ result: T; loopDelayMs: [number, number, number] }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await run();
    return { result, loopDelayMs: [histogram.percentile(50), histogram.percentile(99), histogram.max].map((ns) => round(ns / 1e6, 1)) as [number, number, number] };
  } finally {
    histogram.disable();
  }
}

// ---- ceilings: the emulator alone ----------------------------------------------------------------

async function ceilingFigure(env: Env, workers: number, when: string): Promise<number> {
  const concurrency = workers * CONCURRENCY;
  const name = `ceiling.emulator.c${concurrency}.${when.replace(/ /g, '_')}`;
  log(`${name}: POST /2/tweets directly, ${concurrency} concurrent loops`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { result: c, loopDelayMs } = await withLoopDelay(() => measureEmulatorCeiling(env.x.url, env.fixture.accounts, {
    concurrency,
    tweets: Math.max(profile.drain, MIN_CEILING_TWEETS),
    warmup: 500,
    tag: `ceiling-c${concurrency}`,
  }));
  if (c.failures) problems.push(`${name}: ${c.failures} posts refused by the emulator (first: ${c.firstFailure})`);
  emit({
    figure: name, tweets: c.tweets, tweets_per_s: round(c.tweetsPerSec, 1), p50_ms: round(c.p50_ms, 2), p99_ms: round(c.p99_ms, 2), bench_cpu_pct: round(cpuPct(cpu0, t0), 0),
    bench_loop_delay_p50_p99_max_ms: loopDelayMs,
  });
  return c.tweetsPerSec;
}

// ---- 1: draining due targets -----------------------------------------------------------------------

async function drainFigure(env: Env, workerCount: number, before: number, ceilingAfter: () => Promise<number>): Promise<void> {
  const name = `publish.drain.workers_${workerCount}`;
  const set = await startProcesses({ workers: workerCount, apis: 0, repoRoot, env: env.crierEnv, db: env.db, log, tag: `drain${workerCount}` });
  let result;
  try {
    // Warm-up through the whole path (JIT, pools, PostgreSQL caches), excluded from the figure.
    await drain(env, `${name} warm-up`, Math.min(profile.drain, 4 * CONCURRENCY * workerCount), `warm-d${workerCount}`, set);
    result = await drain(env, name, profile.drain, `drain-w${workerCount}`, set);
  } finally {
    await set.stop();
  }
  {
    const ceiling = (before + (await ceilingAfter())) / 2;
    const ratio = result.rate / ceiling;
    emit({
      figure: name, targets: profile.drain, targets_per_s: round(result.rate, 1), elapsed_s: round(result.elapsedSec, 2),
      attempt_p50_ms: result.attemptP50, attempt_p99_ms: result.attemptP99,
      ...(result.stages ? { stages_p50_p99_ms: { claim_to_admitted: result.stages.claimToAdmitted, admitted_to_network: result.stages.admittedToNetwork, network_to_recorded: result.stages.networkToRecorded } } : {}),
      bench_loop_delay_p50_p99_max_ms: result.loopDelayMs,
      ...usageSummary(result.usage),
      ceiling: `ceiling.emulator.c${workerCount * CONCURRENCY} (mean of before and after)`, ceiling_value: round(ceiling, 1), ratio: round(ratio, 4),
    });
    judge({
      goal: `publishing throughput, ${workerCount} worker${workerCount > 1 ? 's' : ''}`, figure: name, value: `${result.rate.toFixed(0)} targets/s`,
      ceiling: `${ceiling.toFixed(0)} posts/s (emulator alone, c${workerCount * CONCURRENCY}, mean of before and after)`, ratio: pct(ratio), target: '>= 80% of the ceiling', pass: ratio >= 0.8,
    });
  }
}

async function drain(env: Env, name: string, count: number, tag: string, set: ProcessSet) {
  const dueAt = dueAfterSeeding(count);
  const seeded = await seedDue(env, count, tag, dueAt);
  const lead = dueAt.getTime() - Date.now();
  if (lead < 500) problems.push(`${name}: the due targets were written only ${lead} ms before their time`);
  await sleep(Math.max(0, lead - 100));
  await set.mark();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { loopDelayMs } = await withLoopDelay(() => waitForTargets(env, name, seeded.postIds, log));
  const usage = await set.sample();
  const benchCpu = cpuPct(cpu0, t0);
  log(`${name}: this process's event-loop delay (the emulator's) p50 / p99 / max ms: ${loopDelayMs.join(' / ')}`);
  const { tweets, attemptMs, stages } = await verifyPublished(env, name, seeded.postIds, tag, problems, log);
  if (stages) log(`${name}: p50 / p99 ms per stage: claim to admitted ${stages.claimToAdmitted.join(' / ')}, admitted to the network ${stages.admittedToNetwork.join(' / ')}, network to recorded ${stages.networkToRecorded.join(' / ')}`);
  const last = Math.max(dueAt.getTime(), ...tweets.map((t) => Date.parse(t.createdAt)));
  const elapsedSec = (last - dueAt.getTime()) / 1000;
  return {
    rate: tweets.length / elapsedSec,
    elapsedSec,
    attemptP50: round(percentile(attemptMs, 0.5), 2),
    attemptP99: round(percentile(attemptMs, 0.99), 2),
    stages,
    loopDelayMs,
    usage: { ...usage, processes: [...usage.processes, { label: 'bench (emulator)', peakRssMb: Number.NaN, cpuPct: benchCpu }] },
  };
}

// ---- 2: keeping up with creation under API load --------------------------------------------------

async function underLoadFigure(env: Env): Promise<void> {
  const name = 'publish.under_load';
  await steadyStatistics(env.db);
  const set = await startProcesses({ workers: 1, apis: 1, repoRoot, env: env.crierEnv, db: env.db, log, tag: 'load' });
  try {
    const api = set.processes.find((p) => p.url)!.url!;
    await createPosts(env, [api], { count: 4 * CONCURRENCY, connections: CREATE_CONNECTIONS, tag: 'warm-load' });
    await sleep(1000);
    await set.mark();
    const samples: { at: number; due: number; publishing: number }[] = [];
    const sampling = sampleBacklog(env.db, samples);
    log(`${name}: creating through POST /v1/posts with ${CREATE_CONNECTIONS} connections for ${profile.underLoadSec} s, one worker publishing`);
    const created = await createPosts(env, [api], { durationSec: profile.underLoadSec, connections: CREATE_CONNECTIONS, tag: 'load' });
    sampling.stop();
    await sampling.done;
    const usage = await set.sample();
    await waitForTargets(env, name, created.postIds, log);
    const { tweets } = await verifyPublished(env, name, created.postIds, 'load', problems, log);
    const createRate = created.postIds.length / created.elapsedSec;
    const inWindow = tweets.filter((t) => Date.parse(t.createdAt) <= created.lastAnsweredAt).length;
    const publishRate = inWindow / created.elapsedSec;
    const third = Math.max(1, Math.floor(samples.length / 3));
    const mean = (xs: typeof samples) => xs.reduce((a, s) => a + s.due, 0) / Math.max(1, xs.length);
    const first = mean(samples.slice(0, third));
    const last = mean(samples.slice(-third));
    const maxDue = Math.max(0, ...samples.map((s) => s.due));
    const latency = Float64Array.from(tweets.map((t) => Date.parse(t.createdAt) - (created.sentAt.get(t.text) ?? Number.NaN)).filter((v) => !Number.isNaN(v))).sort();
    emit({
      figure: name, creates: created.postIds.length, creates_per_s: round(createRate, 1), published_in_window_per_s: round(publishRate, 1),
      backlog_first_third: round(first, 1), backlog_last_third: round(last, 1), backlog_max: maxDue,
      create_to_tweet_p50_ms: round(percentile(latency, 0.5), 1), create_to_tweet_p99_ms: round(percentile(latency, 0.99), 1), ...usageSummary(usage),
    });
    // Growing: the due backlog at the end is larger than at the start by more than one claim's worth.
    const growing = last - first > CONCURRENCY;
    judge({
      goal: 'publishing keeps up with creation under API load', figure: name,
      value: `creates ${createRate.toFixed(0)}/s, published ${publishRate.toFixed(0)}/s; due backlog ${first.toFixed(0)} -> ${last.toFixed(0)} (max ${maxDue})`,
      ceiling: `the create rate (${createRate.toFixed(0)}/s)`, ratio: pct(publishRate / createRate), target: 'due backlog not growing', pass: !growing,
    });
  } finally {
    await set.stop();
  }
}

/** Samples the due, unclaimed backlog every 250 ms until stopped. */
function sampleBacklog(db: Db, into: { at: number; due: number; publishing: number }[]) {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const { rows } = await db.query<{ due: number; publishing: number }>(
        "SELECT (SELECT count(*) FROM targets WHERE due_at <= now())::int AS due, (SELECT count(*) FROM targets WHERE status = 'publishing')::int AS publishing",
      );
      into.push({ at: Date.now(), ...rows[0]! });
      await sleep(250);
    }
  })();
  return { done, stop: () => (stopped = true) };
}

// ---- 3 and 4: scheduling over a pending backlog -------------------------------------------------

async function scheduleFigures(env: Env, ceiling2: (when: string) => Promise<number>): Promise<void> {
  const seedStart = performance.now();
  const backlog = await seedDuePosts(env.db, env.fixture, { count: profile.backlog, tag: 'backlog', when: { daysAhead: [1, 7] }, keepIds: false });
  log(`schedule: seeded ${profile.backlog} pending posts 1-7 days ahead in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  void backlog;
  await steadyStatistics(env.db, true);
  const set = await startProcesses({ workers: 2, apis: 1, repoRoot, env: env.crierEnv, db: env.db, log, tag: 'schedule' });
  try {
    const api = set.processes.find((p) => p.url)!.url!;
    await createPosts(env, [api], { count: 4 * CONCURRENCY, connections: CREATE_CONNECTIONS, tag: 'warm-schedule' });
    await singleFigure(env, api, set);
    await burstFigure(env, set, await ceiling2('before burst'), () => ceiling2('after burst'));
    const { rows } = await env.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM targets t JOIN containers c ON c.post_id = t.post_id WHERE c.content LIKE 'backlog %' AND t.status <> 'pending'",
    );
    if (rows[0]!.n) problems.push(`schedule: ${rows[0]!.n} backlog targets (due in 1-7 days) are no longer pending`);
    const early = env.x.tweets().filter((t) => t.text.startsWith('backlog ')).length;
    if (early) problems.push(`schedule: ${early} backlog posts (due in 1-7 days) were published already`);
  } finally {
    await set.stop();
  }
}

/**
 * Posts created through the API one at a time, each scheduled alone at its own time: half of them
 * 0.5 s ahead (the API's wake-up reaches the workers), half 2.5 s ahead (found by the workers' timers).
 */
async function singleFigure(env: Env, api: string, set: ProcessSet): Promise<void> {
  const name = 'schedule.single';
  await set.mark();
  const late: number[] = [];
  for (let i = 0; i < profile.singles; i++) {
    const lead = i % 2 === 0 ? 500 : 2500;
    const at = new Date(Date.now() + lead);
    const tag = `single-${i}`;
    const created = await createPosts(env, [api], { count: 1, connections: 1, tag, scheduledAt: at });
    await waitForTargets(env, `${name} ${i}`, created.postIds, log);
    const { tweets } = await verifyPublished(env, `${name} ${i}`, created.postIds, tag, problems, log);
    for (const t of tweets) late.push(Date.parse(t.createdAt) - at.getTime());
    await sleep(200);
  }
  const usage = await set.sample();
  const sorted = Float64Array.from(late).sort();
  const tooEarly = late.filter((ms) => ms < 0).length;
  if (tooEarly) problems.push(`${name}: ${tooEarly} posts were published before their scheduled time`);
  const p99 = percentile(sorted, 0.99);
  emit({ figure: name, samples: late.length, backlog: profile.backlog, lateness_ms: late.map((v) => round(v, 0)), p50_ms: round(percentile(sorted, 0.5), 0), p99_ms: round(p99, 0), ...usageSummary(usage) });
  judge({
    goal: `a single post scheduled among ${profile.backlog.toLocaleString('en')} pending starts on time`, figure: name, value: `lateness p99 ${p99.toFixed(0)} ms (${late.length} samples)`,
    ceiling: '—', ratio: '—', target: 'p99 < 1 s', pass: p99 < 1000,
  });
}

async function burstFigure(env: Env, set: ProcessSet, ceilingBefore: number, ceilingAfter: () => Promise<number>): Promise<void> {
  const name = 'schedule.burst';
  const at = new Date(Math.ceil(dueAfterSeeding(profile.burst).getTime() / 1000) * 1000);
  const seeded = await seedDue(env, profile.burst, 'burst', at);
  const slack = at.getTime() - Date.now();
  if (slack < 500) problems.push(`${name}: the burst was written only ${slack} ms before it was due`);
  await sleep(Math.max(0, slack - 100));
  await set.mark();
  await waitForTargets(env, name, seeded.postIds, log);
  const usage = await set.sample();
  const { tweets } = await verifyPublished(env, name, seeded.postIds, 'burst', problems, log);
  const late = Float64Array.from(tweets.map((t) => Date.parse(t.createdAt) - at.getTime())).sort();
  if (late.length && late[0]! < 0) problems.push(`${name}: posts were published before their scheduled time (earliest ${late[0]} ms)`);
  const p99 = percentile(late, 0.99);
  const ceiling2 = (ceilingBefore + (await ceilingAfter())) / 2;
  const bound = (1.5 * profile.burst) / ceiling2 * 1000 + 1000;
  emit({
    figure: name, targets: tweets.length, backlog: profile.backlog, workers: 2, p50_ms: round(percentile(late, 0.5), 0), p99_ms: round(p99, 0),
    max_ms: round(late[late.length - 1] ?? Number.NaN, 0), targets_per_s: round(tweets.length / ((late[late.length - 1] ?? 1) / 1000), 1),
    bound_ms: round(bound, 0), ceiling_value: round(ceiling2, 1), ...usageSummary(usage),
  });
  judge({
    goal: `a burst of ${profile.burst.toLocaleString('en')} due at once drains in time`, figure: name, value: `lateness p99 ${(p99 / 1000).toFixed(2)} s`,
    ceiling: `${ceiling2.toFixed(0)} posts/s (emulator alone, c${2 * CONCURRENCY}, mean of before and after)`, ratio: `${(p99 / bound).toFixed(2)} of the bound`,
    target: `p99 <= 1.5 x ${profile.burst} / ceiling + 1 s = ${(bound / 1000).toFixed(2)} s`, pass: p99 <= bound,
  });
}

// ---- report -----------------------------------------------------------------------------------

function printTables(): void {
  const lines: string[] = [];
  if (goals.length) {
    lines.push('', '| goal | figure | value | ceiling (same run) | ratio | target | |', '|---|---|---|---|---|---|---|');
    for (const g of goals) lines.push(`| ${g.goal} | ${g.figure} | ${g.value} | ${g.ceiling} | ${g.ratio} | ${g.target} | ${g.pass ? 'PASS' : 'MISS'} |`);
  }
  const usage = figures.filter((f) => Array.isArray(f.processes));
  if (usage.length) {
    lines.push('', '| figure | CPU % of one core per process (peak RSS MB) [event loop saturated²] | PostgreSQL CPU %¹ |', '|---|---|---:|');
    for (const f of usage) {
      const procs = (f.processes as { label: string; cpu_pct: number; peak_rss_mb: number; loop_saturated_pct?: number }[])
        .map((p) => `${p.label} ${p.cpu_pct}${Number.isNaN(p.peak_rss_mb) || p.peak_rss_mb === null ? '' : ` (${p.peak_rss_mb})`}${p.loop_saturated_pct === undefined ? '' : ` [${p.loop_saturated_pct}%]`}`).join(', ');
      lines.push(`| ${f.figure} | ${procs} | ${f.db_cpu_pct ?? '—'} |`);
    }
  }
  if (lines.length) {
    lines.push(
      '',
      '¹ PostgreSQL backends serving the figure\'s Crier processes (matched by application_name), % of one core.',
      '² the share of 50 ms windows in which the process\'s main thread was on the CPU at least 90% of the time (/proc/<pid>/task/<pid>/schedstat).',
    );
    process.stdout.write(lines.join('\n') + '\n');
  }
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report: printTables });
