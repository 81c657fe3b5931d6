// `npm run bench:footprint` (about 2 minutes) / `npm run bench:footprint -- --smoke` (about 40 s, for CI).
//
// The memory and the start time of the Node process of `crier start`, as deployed (the embedded
// PostgreSQL is a process of its own and is not counted):
//  1. footprint.*: RSS (from /proc) and V8 heap (from a probe preloaded into the process) once the
//     server has idled after its start, and again after a little traffic (reads, a refused create;
//     with --sandbox, posts published to the sandbox accounts its guide names), without and with --sandbox.
//  2. start.*: cold start with an existing data dir, spawn to the "Crier is running" line and spawn
//     to the first 200 of /healthz, on DATABASE_URL and on the embedded PostgreSQL; and the very
//     first start of an installation (Node's compile cache still empty: every source file's types
//     are stripped and compiled, bin/crier.js).
// Ceilings from the same run: a bare server (bench/footprint-bare.ts: Fastify listening, a pg pool
// connected, one route that queries it, nothing else) measured the same way with the same traffic,
// and an empty Node process. Goals: idle RSS < 120 MB, cold start < 3 s; PASS or MISS.
//
// Prints one JSON line per figure on stdout, then a Markdown table and the goals; progress goes to
// stderr. Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway
// embedded PostgreSQL. Every process gets a fresh compile cache of the run's own (NODE_COMPILE_CACHE).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort } from '../src/db/embedded.ts';
import { networkFor } from '../src/networks/registry.ts';
import type { NetworkId } from '../src/core/network-id.ts';
import { createCleanups, runBenchmark } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { machineBusyShare } from './proc.ts';
import { round } from './stats.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const profile = flags.smoke ? { name: 'smoke', runs: 1, settleMs: 2_000, requests: 200 } : { name: 'full', runs: 3, settleMs: 5_000, requests: 1_000 };
const GOAL_IDLE_RSS_MB = 120;
const GOAL_COLD_START_MS = 3_000;

const repoRoot = path.resolve(import.meta.dirname, '..');
const CRIER = path.join(repoRoot, 'bin', 'crier.js');
const PROBE = path.join(import.meta.dirname, 'footprint-probe.ts');
const BARE = path.join(import.meta.dirname, 'footprint-bare.ts');
const MB = 1024 * 1024;
const log = (line: string) => process.stderr.write(`bench:footprint: ${line}\n`);
const { cleanups, cleanUp } = createCleanups(log);
const problems: string[] = [];

// ---- one process, measured ---------------------------------------------------------------------

interface Memory {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** Physical size of V8's young generation. */
  newSpaceMb: number;
}

interface Measured {
  /** Spawn to the ready line on stdout. */
  readyMs: number;
  /** Spawn to the first 200 of /healthz; undefined for a process without HTTP. */
  healthyMs: number | undefined;
  idle: Memory;
  afterTraffic: Memory | undefined;
  peakRssMb: number;
  stdout: string;
}

interface ProcessSpec {
  label: string;
  /** Node arguments after the probe: the script and its own arguments. */
  argv: string[];
  env: NodeJS.ProcessEnv;
  ready: RegExp;
  http: boolean;
  /** Runs after the idle sample; the sample after it is taken a second later. */
  traffic?: (base: string, stdout: string) => Promise<void>;
  /** Only the start times are wanted (no settling, no samples). */
  startOnly?: boolean;
}

let tempDir = '';
let compileCache = '';

async function measureProcess(spec: ProcessSpec): Promise<Measured> {
  const port = await freePort();
  const probeFile = path.join(tempDir, `probe-${port}.json`);
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', PROBE, ...spec.argv], {
    cwd: repoRoot,
    env: { ...spec.env, PORT: String(port), HOST: '127.0.0.1', FOOTPRINT_PROBE_FILE: probeFile, NODE_COMPILE_CACHE: compileCache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const died = exited.then((code) => {
    throw new Error(`${spec.label} exited (${code}) before it was running:\n${stdout}${stderr}`);
  });
  const polling = new AbortController();
  try {
    const ready = waitUntil(() => spec.ready.test(stdout), polling.signal).then(() => performance.now() - t0);
    const healthy = spec.http ? firstOk(`${base}/healthz`, polling.signal).then(() => performance.now() - t0) : Promise.resolve(undefined);
    const [readyMs, healthyMs] = await Promise.race([Promise.all([ready, healthy]), died]);
    if (spec.startOnly) return { readyMs, healthyMs, idle: noMemory, afterTraffic: undefined, peakRssMb: await rssMb(child.pid!, 'VmHWM'), stdout };
    await sleep(profile.settleMs);
    const idle = await sample(child.pid!, probeFile);
    let afterTraffic: Memory | undefined;
    if (spec.traffic) {
      await spec.traffic(base, stdout);
      await sleep(1_000);
      afterTraffic = await sample(child.pid!, probeFile);
    }
    return { readyMs, healthyMs, idle, afterTraffic, peakRssMb: await rssMb(child.pid!, 'VmHWM'), stdout };
  } finally {
    polling.abort();
    died.catch(() => {});
    const code = await stop(child, exited);
    if (code !== 0) problems.push(`${spec.label} exited with ${code} when stopped:\n${stderr.slice(-2000)}`);
  }
}

const noMemory: Memory = { rssMb: Number.NaN, heapUsedMb: Number.NaN, heapTotalMb: Number.NaN, newSpaceMb: Number.NaN };

async function stop(child: ReturnType<typeof spawn>, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/** Polls every few milliseconds: the figures are start times, the poll's own period must not dominate them. */
async function waitUntil(condition: () => boolean, signal: AbortSignal, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline || signal.aborted) throw new Error('timed out');
    await sleep(2);
  }
}

async function firstOk(url: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
  throw new Error(`${url} never answered 200`);
}

async function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]) / 1024;
}

/** RSS from /proc; the heap from the probe (SIGUSR2, then its file). */
async function sample(pid: number, probeFile: string): Promise<Memory> {
  const rss = await rssMb(pid, 'VmRSS');
  await rm(probeFile, { force: true });
  process.kill(pid, 'SIGUSR2');
  let text = '';
  for (let i = 0; i < 500 && !text; i++) {
    text = await readFile(probeFile, 'utf8').catch(() => '');
    if (!text) await sleep(10);
  }
  if (!text) throw new Error(`the probe of ${pid} did not answer`);
  const heap = JSON.parse(text) as { heapUsed: number; heapTotal: number; newSpace: number };
  return { rssMb: rss, heapUsedMb: heap.heapUsed / MB, heapTotalMb: heap.heapTotal / MB, newSpaceMb: heap.newSpace / MB };
}

// ---- traffic -------------------------------------------------------------------------------------

async function call(base: string, key: string | undefined, method: string, route: string, expected: number, body?: unknown): Promise<any> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${route}: ${res.status} (expected ${expected}) ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Reads of every common kind, and a create refused by validation (a 400 naming the field). */
function readsAndARefusedCreate(key: string, count: number) {
  return async (base: string): Promise<void> => {
    const requests = [
      () => call(base, undefined, 'GET', '/healthz', 200),
      () => call(base, key, 'GET', '/v1/posts?limit=50', 200),
      () => call(base, key, 'GET', '/v1/social-accounts', 200),
      () => call(base, key, 'GET', '/v1/webhooks', 200),
      () => call(base, key, 'POST', '/v1/posts', 400, { accounts: [], content: 'no account' }),
    ];
    for (let i = 0; i < count; i++) await requests[i % requests.length]!();
  };
}

/**
 * Sandbox: the reads above, plus posts to the sandbox accounts the guide's example names, waited for
 * until published — those whose network's per-account quota takes all of them at once (the emulators
 * keep the networks' limits: Google Business Profile's 10 posts a minute would hold 100 posts for ten
 * minutes, which measures waiting, not memory).
 */
function sandboxTraffic(count: number) {
  return async (base: string, stdout: string): Promise<void> => {
    const key = /API key for this sandbox run: (crier_\S+)/.exec(stdout)?.[1];
    // The guide's example post: its accounts and the blocks they need (a Reddit subreddit and title).
    const example = /-d '(\{"accounts":.*\})'$/m.exec(stdout)?.[1];
    if (!key || !example) throw new Error(`the sandbox guide names no key or example post:\n${stdout}`);
    // Its text alone (one container per post), to the accounts below.
    const { containers: _, accounts, ...blocks } = JSON.parse(example) as { containers: unknown[]; accounts: string[] };
    const posts = count / 10;
    const networkOf = new Map([...stdout.matchAll(/^ {2}([a-z_]+)\s+@(\S+)\s+account id \S+$/gm)].map((m) => [m[2]!, m[1]! as NetworkId]));
    const admitted = accounts.filter((username) => {
      const quota = networkFor(networkOf.get(username)!).limits.accountQuota;
      return !quota || quota.max >= posts;
    });
    if (admitted.length < 2) throw new Error(`fewer than two of the example's accounts take ${posts} posts at once: ${accounts.join(', ')}`);
    const addressed = { ...blocks, accounts: admitted };
    await readsAndARefusedCreate(key, count - posts)(base);
    const ids: string[] = [];
    for (let i = 0; i < posts; i++) {
      const post = await call(base, key, 'POST', '/v1/posts', 200, { ...addressed, content: `footprint ${i} ${randomBytes(4).toString('hex')}` });
      ids.push(post.post.id);
    }
    for (const id of ids) await waitForPublished(base, key, id);
  };
}

async function waitForPublished(base: string, key: string, id: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const post = await call(base, key, 'GET', `/v1/posts/${id}`, 200);
    const statuses: string[] = post.post.socialAccounts.map((a: { status: string }) => a.status);
    if (statuses.every((s) => s === 'published')) return;
    if (statuses.some((s) => s === 'error' || s === 'failed')) throw new Error(`post ${id} did not publish: ${JSON.stringify(statuses)}`);
    if (performance.now() > deadline) throw new Error(`post ${id} not published within 60 s: ${JSON.stringify(statuses)}`);
    await sleep(50);
  }
}

// ---- figures -------------------------------------------------------------------------------------

interface Figure {
  figure: string;
  value: number;
  unit: 'MB' | 'ms';
  detail: string;
  ceiling: string | null;
  ceiling_value: number | null;
  ratio: number | null;
  goal: string | null;
  verdict: 'PASS' | 'MISS' | null;
}

const figures: Figure[] = [];

function emit(figure: string, value: number, unit: Figure['unit'], detail: string, ceiling?: { name: string; value: number }, goal?: { text: string; met: boolean }): void {
  const f: Figure = {
    figure,
    value: round(value, 1),
    unit,
    detail,
    ceiling: ceiling?.name ?? null,
    ceiling_value: ceiling ? round(ceiling.value, 1) : null,
    ratio: ceiling ? round(value / ceiling.value, 2) : null,
    goal: goal?.text ?? null,
    verdict: goal ? (goal.met ? 'PASS' : 'MISS') : null,
  };
  figures.push(f);
  process.stdout.write(JSON.stringify(f) + '\n');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function medianMemory(samples: Memory[]): Memory {
  const pick = (key: keyof Memory) => median(samples.map((s) => s[key]));
  return { rssMb: pick('rssMb'), heapUsedMb: pick('heapUsedMb'), heapTotalMb: pick('heapTotalMb'), newSpaceMb: pick('newSpaceMb') };
}

const describe = (m: Memory) => `heap used ${m.heapUsedMb.toFixed(1)} MB of ${m.heapTotalMb.toFixed(1)} MB (young generation ${m.newSpaceMb.toFixed(1)} MB)`;

async function repeat(spec: ProcessSpec, runs = profile.runs): Promise<Measured[]> {
  const results: Measured[] = [];
  for (let run = 0; run < runs; run++) {
    log(`${spec.label}: run ${run + 1} of ${runs}`);
    results.push(await measureProcess(spec));
  }
  return results;
}

// ---- the run -------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const busy = await machineBusyShare();
  if (busy > 0.25) log(`warning: the machine is ${(busy * 100).toFixed(0)}% busy before the bench starts; start times will be longer than on an idle machine`);
  const bench = await openBenchDatabase('crier_bench_footprint', cleanups, log);
  tempDir = bench.tempDir;
  compileCache = path.join(tempDir, 'compile-cache');
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: randomBytes(32).toString('hex'),
    CRIER_DATA_DIR: path.join(tempDir, 'data'),
    // The traffic must not meet the per-key window limit (the counters still run).
    CRIER_RATE_LIMIT_FLOOR: '1000000',
    CRIER_RATE_LIMIT_CEILING: '1000000',
    // Three sandbox starts on one database post 300 times to @sandbox_x within minutes; the sandbox
    // applies X's quota (100 per 15 minutes) as X would, and would hold two thirds back.
    CRIER_ACCOUNT_QUOTAS: 'off',
  };
  const withUrl = { ...base, DATABASE_URL: bench.databaseUrl };

  // The first start of the installation: empty compile cache, empty database (creates the default org).
  const first = await measureProcess({ label: 'crier start (first start, empty compile cache)', argv: [CRIER, 'start'], env: withUrl, ready: /Crier is running/, http: true, startOnly: true });
  const key = /Admin API key \(shown once, store it now\): (crier_\S+)/.exec(first.stdout)?.[1];
  if (!key) throw new Error(`the first start printed no admin key:\n${first.stdout}`);

  // Ceilings. A first, unmeasured start of the bare server fills the compile cache for its own files,
  // as crier's first start did for crier's (and the probe's): every measured process then finds it warm.
  const bareSpec: ProcessSpec = { label: 'bare Fastify + pg', argv: [BARE], env: withUrl, ready: /bare server is running/, http: true, traffic: healthzOnly(profile.requests) };
  await measureProcess({ ...bareSpec, label: 'bare Fastify + pg (compile cache warm-up)', startOnly: true });
  const bare = await repeat(bareSpec);
  const idleScript = "process.on('SIGTERM', () => process.exit(0)); process.stdout.write('idle\\n'); setInterval(() => {}, 1 << 30);";
  const empty = await repeat({ label: 'empty node process', argv: ['-e', idleScript], env: withUrl, ready: /idle/, http: false });

  const plain = await repeat({ label: 'crier start', argv: [CRIER, 'start'], env: withUrl, ready: /Crier is running/, http: true, traffic: readsAndARefusedCreate(key, profile.requests) });
  const sandbox = await repeat({ label: 'crier start --sandbox', argv: [CRIER, 'start', '--sandbox'], env: withUrl, ready: /Crier is running/, http: true, traffic: sandboxTraffic(profile.requests) });

  const embeddedDir = await mkdtemp(path.join(os.tmpdir(), 'crier-bench-footprint-embedded-'));
  cleanups.push({ label: 'remove the embedded data dir', run: () => rm(embeddedDir, { recursive: true, force: true }) });
  const embeddedEnv = { ...base, DATABASE_URL: undefined, CRIER_DATA_DIR: embeddedDir };
  log('crier start on the embedded PostgreSQL: first start (initdb)');
  const initial = await measureProcess({ label: 'crier start, embedded (first start, initdb)', argv: [CRIER, 'start'], env: embeddedEnv, ready: /Crier is running/, http: true, startOnly: true });
  const embedded = await repeat({ label: 'crier start, embedded PostgreSQL', argv: [CRIER, 'start'], env: embeddedEnv, ready: /Crier is running/, http: true, startOnly: true });

  report({ first, bare, empty, plain, sandbox, initial, embedded });
}

function healthzOnly(count: number) {
  return async (base: string): Promise<void> => {
    for (let i = 0; i < count; i++) await call(base, undefined, 'GET', '/healthz', 200);
  };
}

function report(r: Record<'first' | 'initial', Measured> & Record<'bare' | 'empty' | 'plain' | 'sandbox' | 'embedded', Measured[]>): void {
  const bareIdle = medianMemory(r.bare.map((m) => m.idle));
  const bareTraffic = medianMemory(r.bare.map((m) => m.afterTraffic!));
  const emptyIdle = medianMemory(r.empty.map((m) => m.idle));
  const ceilingIdle = { name: `bare Fastify + pg, idle: ${bareIdle.rssMb.toFixed(1)} MB (an empty node process: ${emptyIdle.rssMb.toFixed(1)} MB)`, value: bareIdle.rssMb };
  const ceilingTraffic = { name: `bare Fastify + pg after ${profile.requests} requests: ${bareTraffic.rssMb.toFixed(1)} MB`, value: bareTraffic.rssMb };
  const idleGoal = (m: Memory) => ({ text: `< ${GOAL_IDLE_RSS_MB} MB`, met: m.rssMb < GOAL_IDLE_RSS_MB });

  for (const [name, runs] of [['start', r.plain], ['start_sandbox', r.sandbox]] as const) {
    const idle = medianMemory(runs.map((m) => m.idle));
    const traffic = medianMemory(runs.map((m) => m.afterTraffic!));
    emit(`footprint.${name}.idle_rss`, idle.rssMb, 'MB', describe(idle), ceilingIdle, name === 'start' ? idleGoal(idle) : undefined);
    emit(`footprint.${name}.after_traffic_rss`, traffic.rssMb, 'MB', describe(traffic), ceilingTraffic);
  }

  const bareReady = median(r.bare.map((m) => m.healthyMs!));
  const startCeiling = { name: `bare Fastify + pg, spawn to first 200: ${bareReady.toFixed(0)} ms`, value: bareReady };
  const startGoal = (ms: number) => ({ text: `< ${GOAL_COLD_START_MS} ms`, met: ms < GOAL_COLD_START_MS });
  const starts: [string, Measured[], string][] = [
    ['start.database_url', r.plain, 'DATABASE_URL, warm compile cache'],
    ['start.embedded', r.embedded, 'embedded PostgreSQL (started by crier), warm compile cache'],
    ['start.first_install', [r.first], 'DATABASE_URL, empty compile cache, empty database'],
  ];
  for (const [name, runs, what] of starts) {
    const ready = median(runs.map((m) => m.readyMs));
    const healthy = median(runs.map((m) => m.healthyMs!));
    emit(`${name}.to_running`, ready, 'ms', `${what}: spawn to "Crier is running"`, startCeiling, name === 'start.first_install' ? undefined : startGoal(ready));
    emit(`${name}.to_healthz`, healthy, 'ms', `${what}: spawn to the first 200 of /healthz`, startCeiling, name === 'start.first_install' ? undefined : startGoal(healthy));
  }
  log(`embedded first start (initdb): ${r.initial.readyMs.toFixed(0)} ms to "Crier is running" (not a goal: once per installation)`);
  log(`peak RSS over a run (start, idle, traffic): crier ${median(r.plain.map((m) => m.peakRssMb)).toFixed(1)} MB, bare ${median(r.bare.map((m) => m.peakRssMb)).toFixed(1)} MB`);
}

function printTable(): void {
  const lines = ['', `Footprint (${profile.name}: median of ${profile.runs} run(s) per figure; ${os.cpus().length} CPUs shared by everything in the run)`, '', '| figure | value | ceiling (same run) | ratio | goal | |', '|---|---:|---|---:|---|---|'];
  for (const f of figures) {
    lines.push(`| ${f.figure} | ${f.value} ${f.unit} | ${f.ceiling ?? '—'} | ${f.ratio === null ? '—' : `${f.ratio}×`} | ${f.goal ?? '—'} | ${f.verdict ?? ''} |`);
  }
  lines.push('', ...figures.filter((f) => f.detail).map((f) => `- ${f.figure}: ${f.detail}`));
  const goals = figures.filter((f) => f.verdict);
  lines.push('', 'Goals:', ...goals.map((f) => `- ${f.figure}: ${f.value} ${f.unit} (goal ${f.goal}; ceiling ${f.ceiling_value} ${f.unit}, ${f.ratio}×): ${f.verdict}`));
  process.stdout.write(lines.join('\n') + '\n');
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report: () => figures.length && printTable() });
