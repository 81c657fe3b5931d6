// `npm run bench:ratelimit` (about a minute) / `npm run bench:ratelimit -- --smoke` (about 25 s).
//
// What rate limiting costs: requests/s of GET /v1/social-accounts on the Crier API (`crier api` as a
// child process) with window limits off, with the memory store and with the Redis store, each beside
// the bare-Fastify ceiling measured in the same run. Limits are set far above what the load sends,
// so every figure is of 2xx responses only; a 429 (or any non-2xx) is reported as broken.
//
// Database: BENCH_DATABASE_URL (admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL. Redis: BENCH_REDIS_URL, else TEST_REDIS_URL, else redis://127.0.0.1:6379; the Redis
// figure is skipped (with a note) when none answers. Prints one JSON line per figure, then a table.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '../src/db/embedded.ts';
import { runBenchmark, runCleanups, type Cleanup } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { createSecretBox } from '../src/security/crypto.ts';
import { measureBareFastify } from './ceilings.ts';
import { measure, type LoadSpec, type Measurement } from './load.ts';
import { machineBusyShare, spawnNode, waitForHttp } from './proc.ts';
import { createFixture } from './seed.ts';
import { round } from './stats.ts';

const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const profile = flags.smoke ? { durationSec: 3, warmupSec: 1 } : { durationSec: 10, warmupSec: 2 };
const CONNECTIONS = 20;
/** Far above what 20 connections can send in a window: nothing may be refused. */
const HUGE_LIMIT = '1000000000';
const PATH = '/v1/social-accounts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

interface Figure {
  figure: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  peak_rss_mb: number;
  ceiling: string;
  ceiling_value: number;
  ratio: number;
}

const figures: Figure[] = [];
const problems: string[] = [];
const notes: string[] = [];
const cleanups: (() => Promise<unknown>)[] = [];

function emit(name: string, m: Measurement, ceiling: Measurement): void {
  const figure: Figure = {
    figure: name,
    rps: round(m.rps, 1),
    p50_ms: round(m.p50_ms, 2),
    p99_ms: round(m.p99_ms, 2),
    peak_rss_mb: round(m.peakRssMb, 1),
    ceiling: 'bare_get_rps',
    ceiling_value: round(ceiling.rps, 1),
    ratio: round(m.rps / ceiling.rps, 3),
  };
  figures.push(figure);
  process.stdout.write(JSON.stringify(figure) + '\n');
}

function check(name: string, m: Measurement): void {
  const codes = Object.entries(m.statusCodes).map(([code, n]) => `${code}: ${n}`).join(', ');
  log(`${name}: ${m.responses} responses (${codes}); server CPU ${m.serverCpuPct.toFixed(0)}% of one core`);
  if (m.non2xx || m.errors) problems.push(`${name}: ${m.non2xx} non-2xx responses, ${m.errors} connection errors (status codes ${codes})`);
}

/** The first Redis URL that answers PING, or undefined. */
async function findRedis(): Promise<string | undefined> {
  const url = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return url;
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

interface Mode {
  name: string;
  env: Record<string, string>;
  /** Whether responses must carry X-RateLimit-* headers (proves the mode is really on). */
  limited: boolean;
}

async function runMode(mode: Mode, databaseUrl: string, secretKey: string, tempDir: string, auth: Record<string, string>, ceiling: Measurement): Promise<void> {
  const port = await freePort();
  const api = spawnNode(`crier ${mode.name}`, path.join(repoRoot, 'bin', 'crier.js'), ['api'], {
    ...process.env,
    REDIS_URL: '', // only the Redis mode uses Redis, whatever the caller's environment says
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: secretKey,
    CRIER_DATA_DIR: path.join(tempDir, 'crier-data'),
    CRIER_RATE_LIMIT_FLOOR: HUGE_LIMIT,
    CRIER_RATE_LIMIT_CEILING: HUGE_LIMIT,
    ...mode.env,
  }, repoRoot);
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/healthz`);
    const probe = await fetch(url + PATH, { headers: auth });
    const hasHeaders = probe.headers.has('x-ratelimit-limit');
    if (probe.status !== 200 || hasHeaders !== mode.limited) {
      problems.push(`ratelimit.${mode.name}: probe got HTTP ${probe.status}, rate-limit headers ${hasHeaders ? 'present' : 'absent'} (expected ${mode.limited ? 'present' : 'absent'})`);
    }
    const spec: LoadSpec = { url, method: 'GET', path: PATH, connections: CONNECTIONS, durationSec: profile.durationSec, headers: auth };
    const m = await measure(api.pid, spec, profile.warmupSec);
    check(`ratelimit.${mode.name}`, m);
    emit(`ratelimit.${mode.name}`, m, ceiling);
  } finally {
    await api.stop();
  }
}

/** The Redis figure only counts if the counters really were in Redis (not the in-memory fallback). */
async function assertCountedInRedis(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (!keys.length) problems.push(`ratelimit.redis: no counter under ${prefix}:* in Redis; the API counted in memory`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const busy = await machineBusyShare();
  if (busy > 0.2) log(`WARNING: ${(busy * 100).toFixed(0)}% of the machine's CPU was already in use; figures will be low and noisy`);
  const dbCleanups: Cleanup[] = [];
  cleanups.push(() => runCleanups(dbCleanups, log));
  const { db, databaseUrl, tempDir } = await openBenchDatabase('crier_bench_rl', dbCleanups, log);
  const secretKey = randomBytes(32);
  const fixture = await createFixture(db, createSecretBox(secretKey));
  const auth = { authorization: `Bearer ${fixture.apiKey}` };

  log(`ceiling: bare Fastify, ${CONNECTIONS} connections, ${profile.durationSec} s after ${profile.warmupSec} s warm-up`);
  const bare = await measureBareFastify(repoRoot, { connections: CONNECTIONS, ...profile }, { headers: auth, postBody: '{}' });
  check('ceiling.bare_get', bare.get);
  emit('ceiling.bare_get', bare.get, bare.get);

  const redisUrl = await findRedis();
  const prefix = `crier-bench:${process.pid}`;
  const modes: Mode[] = [
    { name: 'off', env: { CRIER_RATE_LIMIT_ENABLED: 'false' }, limited: false },
    { name: 'memory', env: {}, limited: true },
  ];
  if (redisUrl) modes.push({ name: 'redis', env: { REDIS_URL: redisUrl, CRIER_RATE_LIMIT_REDIS_PREFIX: prefix }, limited: true });
  else notes.push('ratelimit.redis skipped: no Redis answered (set BENCH_REDIS_URL)');
  for (const mode of modes) {
    log(`Crier API, rate limiting ${mode.name}`);
    await runMode(mode, databaseUrl, secretKey.toString('hex'), tempDir, auth, bare.get);
  }
  if (redisUrl) await assertCountedInRedis(redisUrl, prefix);
}

function printTable(): void {
  const lines = ['', '| figure | req/s | p50 ms | p99 ms | peak RSS MB | % of bare Fastify | vs off |', '|---|---:|---:|---:|---:|---:|---:|'];
  const off = figures.find((f) => f.figure === 'ratelimit.off');
  for (const f of figures) {
    const vsOff = off && f.figure.startsWith('ratelimit.') ? `${((f.rps / off.rps) * 100).toFixed(1)}%` : '—';
    lines.push(`| ${f.figure} | ${f.rps.toFixed(1)} | ${f.p50_ms.toFixed(2)} | ${f.p99_ms.toFixed(2)} | ${f.peak_rss_mb.toFixed(1)} | ${(f.ratio * 100).toFixed(1)}% | ${vsOff} |`);
  }
  if (notes.length) lines.push('', ...notes);
  process.stdout.write(lines.join('\n') + '\n');
}

async function cleanUp(): Promise<void> {
  for (const run of cleanups.reverse()) await run().catch((error: Error) => log(`cleanup failed: ${error.message}`));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().then(() => process.exit(130)));

await runBenchmark({ main, cleanUp, problems, log, report: () => figures.length && printTable() });
