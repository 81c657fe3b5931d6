// `npm run bench` (most of it seeding four shapes of 1,000,000 posts for the list figures, and 30 list
// figures; BENCH_LIST_POSTS and BENCH_LIST_SECONDS make it shorter) / `npm run bench -- --smoke` (about
// 60 s, for CI: 5,000 posts per shape, 1 s per list figure).
//
// Measures the Crier API, started as a child process exactly as deployed (`crier api`), against
// ceilings measured in the same run on the same machine: bare Fastify for HTTP, and raw single-row
// insert transactions for the database. Prints one JSON line per figure on stdout, then a Markdown
// table; progress goes to stderr. Exits 1 when something broke (non-2xx responses, connection
// errors, 202s = posts stored without their publishing jobs, a crash); missing an aim is reported,
// not a failure. Run it on an otherwise idle machine: it warns when it is not.
//
// Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL in a temporary directory. Either way the bench works in a fresh database of its own and
// drops it at the end.
import { createCleanups, runBenchmark } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { NETWORK_LIST } from '../src/networks/registry.ts';
import { freePort } from '../src/db/embedded.ts';
import { createSecretBox } from '../src/security/crypto.ts';
import { measureBareFastify, measureRawInserts } from './ceilings.ts';
import { measure, type LoadSpec, type Measurement } from './load.ts';
import { machineBusyShare, spawnNode, waitForHttp } from './proc.ts';
import { createFixture } from './seed.ts';
import { countStar, databaseCpuSince, listFigures, loadAverage, seedListShapes, type ListShape } from './lists.ts';
import { round } from './stats.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false }, only: { type: 'string' } } });
/** `--only creates` or `--only lists`: those figures alone, with their ceilings. */
const only = flags.only ? new Set(flags.only.split(',')) : undefined;
const wanted = (part: 'creates' | 'lists') => !only || only.has(part);
const profile = flags.smoke
  ? { name: 'smoke', durationSec: 2, warmupSec: 1, listPosts: 5_000, listDurationSec: 1, listWarmupSec: 0 }
  : { name: 'full', durationSec: 10, warmupSec: 2, listPosts: 1_000_000, listDurationSec: 10, listWarmupSec: 2 };
/**
 * The list figures' posts per shape (four shapes, bench/lists.ts) and seconds per figure, which
 * BENCH_LIST_POSTS and BENCH_LIST_SECONDS override: seeding 4,000,000 posts on a small machine takes
 * a while, and 30 figures of 10 s take five minutes.
 */
const listPosts = positiveEnv('BENCH_LIST_POSTS') ?? profile.listPosts;
const listDurationSec = positiveEnv('BENCH_LIST_SECONDS') ?? profile.listDurationSec;
/** One concurrency for every HTTP figure and ceiling, and for the raw insert loops, so they compare. */
const CONNECTIONS = 20;
/** The API's pool size, parsed the way Crier parses it (same default), and passed on to the API. */
const POOL_SIZE = loadConfig({ DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }, NETWORK_LIST).databasePoolSize;
/**
 * The issue's goals for creates: the plain create at least the raw insert rate with p99 under 20 ms;
 * with an Idempotency-Key or with media, at least 70% of it. Reported, not enforced.
 */
const GOAL_CREATE = { ratio: 1, p99Ms: 20 };
const GOAL_CREATE_VARIANT_RATIO = 0.7;
/** The application_name of the API's database connections. */
const API_APP_NAME = `crier-bench-api-${process.pid}`;
/** The issue's goal for every list figure: p99 under 20 ms at 20 connections, over 1,000,000 posts. */
const GOAL_LIST_P99_MS = 20;

const repoRoot = path.resolve(import.meta.dirname, '..');
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

// ---- results ---------------------------------------------------------------------------------

interface Figure {
  figure: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  peak_rss_mb: number | null;
  ceiling: string | null;
  ceiling_value: number | null;
  ratio: number | null;
}

const figures: Figure[] = [];
const problems: string[] = [];
/** CPU µs per request of each list figure: the API process, and the database's backends. */
const cpuPerRequest = new Map<string, { api: number; db: number; apiLoopSaturatedPct?: number }>();
/** The machine's load averages when the list figures started and ended (it is shared). */
const listLoad: string[] = [];
/** Each list figure's total beside count(*) of the same filter, checked before it was loaded. */
const totalChecks: { figure: string; total: number | null; count: number }[] = [];

function emit(name: string, m: { rps: number; p50_ms: number; p99_ms: number; peakRssMb?: number }, ceiling?: { name: string; value: number }): void {
  const figure: Figure = {
    figure: name,
    rps: round(m.rps, 1),
    p50_ms: round(m.p50_ms, 2),
    p99_ms: round(m.p99_ms, 2),
    peak_rss_mb: m.peakRssMb === undefined ? null : round(m.peakRssMb, 1),
    ceiling: ceiling?.name ?? null,
    ceiling_value: ceiling ? round(ceiling.value, 1) : null,
    ratio: ceiling ? round(m.rps / ceiling.value, 3) : null,
  };
  figures.push(figure);
  process.stdout.write(JSON.stringify(figure) + '\n');
}

/**
 * A figure only means something if every request succeeded. Anything else is recorded as broken,
 * with the status codes and, replayed once, a sample of what the server answered.
 */
async function checkResponses(name: string, m: Measurement, spec: LoadSpec): Promise<void> {
  const codes = Object.entries(m.statusCodes).map(([code, n]) => `${code}: ${n}`).join(', ');
  const saturated = m.serverLoopSaturatedPct === undefined ? '' : `, its event loop saturated in ${m.serverLoopSaturatedPct.toFixed(0)}% of 50 ms windows`;
  log(`${name}: ${m.responses} responses (${codes}); server CPU ${m.serverCpuPct.toFixed(0)}% of one core${saturated}`);
  if (m.non2xx === 0 && m.errors === 0) return;
  problems.push(`${name}: ${m.non2xx} non-2xx responses, ${m.errors} connection errors/timeouts (status codes ${codes})`);
  try {
    const response = await fetch(spec.url + spec.path, {
      method: spec.method,
      headers: { ...spec.headers, ...(spec.body ? { 'content-type': 'application/json' } : {}), ...spec.perRequestHeaders?.() },
      body: spec.body,
    });
    problems.push(`${name}: a replayed request got HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`);
  } catch (error) {
    problems.push(`${name}: a replayed request failed: ${(error as Error).message}`);
  }
}

// ---- resources, released in reverse order whatever happens ------------------------------------

const { cleanups, cleanUp } = createCleanups(log);

async function main(): Promise<void> {
  log(`${profile.name} run: ${CONNECTIONS} connections, ${profile.durationSec} s per figure after a ${profile.warmupSec} s warm-up, pool ${POOL_SIZE}`);
  const busy = await machineBusyShare();
  if (busy > 0.2) log(`WARNING: ${(busy * 100).toFixed(0)}% of the machine's CPU was already in use before the bench started; figures will be low and noisy`);
  const { db, databaseUrl, tempDir } = await openBenchDatabase('crier_bench', cleanups, log);
  // The API decrypts account tokens with CRIER_SECRET_KEY: seal them under the same key.
  const secretKey = randomBytes(32);
  const fixture = await createFixture(db, createSecretBox(secretKey));

  const auth = { authorization: `Bearer ${fixture.apiKey}` };
  const createBody = JSON.stringify({ accounts: [fixture.x.id, fixture.bluesky.id], content: 'bench' });
  // Two images by URL, each with alt text: media rows and their validation (the URLs are not fetched at create).
  const createWithMediaBody = JSON.stringify({
    accounts: [fixture.x.id, fixture.bluesky.id],
    containers: [{
      content: 'bench with media',
      media: [
        { url: 'https://cdn.example.com/bench/a.jpg', filename: 'a.jpg', altText: 'first image' },
        { url: 'https://cdn.example.com/bench/b.png', filename: 'b.png', altText: 'second image' },
      ],
    }],
  });
  const shape = { connections: CONNECTIONS, durationSec: profile.durationSec, warmupSec: profile.warmupSec };

  // ---- ceilings -------------------------------------------------------------------------------
  // The creates' ceilings (bare POST, raw inserts) only with the creates: the lists alone need every
  // second they can get on the lent many-core machine (bench/many-cores.sh).
  log('ceiling: bare Fastify');
  const bare = await measureBareFastify(repoRoot, shape, { headers: auth, postBody: wanted('creates') ? createBody : undefined });
  const bareFigures = [['ceiling.bare_get', bare.get], ...(bare.post ? [['ceiling.bare_post', bare.post] as const] : [])] as const;
  for (const [name, m] of bareFigures) {
    emit(name, m);
    log(`${name}: ${m.responses} responses; server CPU ${m.serverCpuPct.toFixed(0)}% of one core`);
    if (m.non2xx || m.errors) problems.push(`${name}: ${m.non2xx} non-2xx, ${m.errors} errors`);
  }
  const bareGetCeiling = { name: 'bare_get_rps', value: bare.get.rps };

  // ---- the Crier API --------------------------------------------------------------------------
  const seedStart = performance.now();
  const shapes = wanted('lists') ? await seedListShapes(databaseUrl, listPosts, log) : [];
  if (shapes.length) log(`seeded ${shapes.length} list shapes of ${listPosts} posts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const port = await freePort();
  // Its connections carry their own application_name: the list figures read their backends' CPU.
  const apiDatabaseUrl = new URL(databaseUrl);
  apiDatabaseUrl.searchParams.set('application_name', API_APP_NAME);
  const api = spawnNode('crier', path.join(repoRoot, 'bin', 'crier.js'), ['api'], {
    ...process.env,
    DATABASE_URL: apiDatabaseUrl.toString(),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // This bench measures the API's own path; the limiter's cost is measured by bench/rate-limit.ts.
    CRIER_RATE_LIMIT_ENABLED: 'false',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    CRIER_SECRET_KEY: secretKey.toString('hex'),
    CRIER_DATA_DIR: path.join(tempDir, 'crier-data'), // nothing lands in the repo's ./data
  }, repoRoot);
  cleanups.push({ label: 'stop Crier API', run: () => api.stop() });
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${apiUrl}/healthz`);
  log(`Crier API pid ${api.pid} on ${apiUrl}`);

  const base = { url: apiUrl, connections: CONNECTIONS, durationSec: profile.durationSec, headers: auth };

  // Lists first, so they read exactly the seeded history, not the posts the create figures add.
  if (shapes.length) listLoad.push(loadAverage());
  for (const shape of shapes) {
    const headers = { authorization: `Bearer ${shape.apiKey}` };
    for (const [name, query] of listFigures(shape)) {
      const listPath = `/v1/posts?${new URLSearchParams(query)}`;
      await checkTotal(name, apiUrl + listPath, headers, db, shape, query);
      const spec: LoadSpec = { ...base, headers, durationSec: listDurationSec, method: 'GET', path: listPath };
      const m = await measure(api.pid, spec, profile.listWarmupSec, () => databaseCpuSince(db, API_APP_NAME));
      await checkResponses(name, m, spec);
      emit(name, m, bareGetCeiling);
      const perRequestUs = (cpuSeconds: number) => cpuSeconds / m.responses * 1e6;
      cpuPerRequest.set(name, { api: perRequestUs((m.serverCpuPct / 100) * listDurationSec), db: perRequestUs(m.otherCpuSeconds ?? Number.NaN), apiLoopSaturatedPct: m.serverLoopSaturatedPct });
    }
  }
  if (shapes.length) listLoad.push(loadAverage());

  if (!wanted('creates')) return;
  log(`ceiling: raw insert transactions (${CONNECTIONS} loops, pool ${POOL_SIZE})`);
  const raw = await measureRawInserts(databaseUrl, { poolSize: POOL_SIZE, loops: CONNECTIONS, ...shape, orgId: fixture.orgId });
  emit('ceiling.raw_insert_tps', { rps: raw.tps, p50_ms: raw.p50_ms, p99_ms: raw.p99_ms });
  const insertCeiling = { name: 'raw_insert_tps', value: raw.tps };
  const postsBefore = await countPosts(db, fixture.orgId);
  const creates: [string, LoadSpec][] = [
    ['posts.create', { ...base, method: 'POST', path: '/v1/posts', body: createBody }],
    ['posts.create.idempotent', { ...base, method: 'POST', path: '/v1/posts', body: createBody, perRequestHeaders: () => ({ 'idempotency-key': randomUUID() }) }],
    ['posts.create.with_media', { ...base, method: 'POST', path: '/v1/posts', body: createWithMediaBody }],
  ];
  for (const [name, spec] of creates) {
    const m = await measure(api.pid, spec, profile.warmupSec);
    await checkResponses(name, m, spec);
    // Crier no longer answers 202 (a post and its due targets are one statement): it would be a bug.
    if (m.statusCodes['202']) problems.push(`${name}: ${m.statusCodes['202']} posts answered 202`);
    emit(name, m, insertCeiling);
  }
  // Sanity: the create figures were real writes, each post with its two targets due (the publishing
  // queue; no worker runs here). Counted in one statement (one snapshot): requests still in flight
  // when autocannon stopped may be committing.
  const { rows } = await db.query<{ posts: number; jobs: number }>(
    `SELECT (SELECT count(*)::int FROM posts WHERE org_id = $1) - $2::int AS posts,
            (SELECT count(*)::int FROM targets WHERE org_id = $1 AND due_at IS NOT NULL) AS jobs`,
    [fixture.orgId, postsBefore],
  );
  const { posts, jobs } = rows[0]!;
  log(`create figures (warm-ups included) stored ${posts} posts with ${jobs} due targets`);
  if (jobs !== 2 * posts) problems.push(`expected ${2 * posts} due targets for ${posts} created posts, found ${jobs}`);
}

/**
 * The list's `pagination.total` must be exactly count(*) of the posts the filter selects, counted
 * here with the list's own WHERE clause: the counters are worth nothing if they are not exact.
 */
async function checkTotal(name: string, url: string, headers: Record<string, string>, db: pg.Pool, shape: ListShape, query: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers });
  const page = (await response.json()) as { pagination?: { total: number; count: number } };
  const exact = await countStar(db, shape, query);
  const total = page.pagination?.total;
  log(`${name}: HTTP ${response.status}, total ${total} (count(*) ${exact}), page ${page.pagination?.count}`);
  if (response.status !== 200 || total !== exact) problems.push(`${name}: HTTP ${response.status}, total ${total} where count(*) is ${exact}`);
  totalChecks.push({ figure: name, total: total ?? null, count: exact });
}

/** A positive number from the environment, or undefined when unset. */
function positiveEnv(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, got ${JSON.stringify(text)}`);
  return value;
}

async function countPosts(db: pg.Pool, orgId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM posts WHERE org_id = $1', [orgId]);
  return rows[0]!.n;
}

function printTable(): void {
  const lines = [
    '',
    `| figure | req/s | p50 ms | p99 ms | peak RSS MB | ceiling | % of ceiling |`,
    `|---|---:|---:|---:|---:|---|---:|`,
  ];
  for (const f of figures) {
    const ceiling = f.ceiling ? `${f.ceiling} (${f.ceiling_value})` : '—';
    const pct = f.ratio === null ? '—' : `${(f.ratio * 100).toFixed(1)}%`;
    lines.push(`| ${f.figure} | ${f.rps.toFixed(1)} | ${f.p50_ms.toFixed(2)} | ${f.p99_ms.toFixed(2)} | ${f.peak_rss_mb?.toFixed(1) ?? '—'} | ${ceiling} | ${pct} |`);
  }
  const createGoals = figures.filter((f) => f.figure.startsWith('posts.create')).map((f) => {
    const ratio = f.ratio ?? 0;
    const plain = f.figure === 'posts.create';
    const goal = plain ? `≥ ${GOAL_CREATE.ratio * 100}% and p99 < ${GOAL_CREATE.p99Ms} ms` : `≥ ${GOAL_CREATE_VARIANT_RATIO * 100}%`;
    const pass = plain ? ratio >= GOAL_CREATE.ratio && f.p99_ms < GOAL_CREATE.p99Ms : ratio >= GOAL_CREATE_VARIANT_RATIO;
    return `- ${f.figure}: ${f.rps.toFixed(0)} req/s = ${(ratio * 100).toFixed(1)}% of the raw insert ceiling's ${f.ceiling_value?.toFixed(0)} tx/s, `
      + `p99 ${f.p99_ms.toFixed(2)} ms (goal ${goal}): ${pass ? 'PASS' : 'MISS'}`;
  });
  if (createGoals.length) lines.push('', `Create goals (${CONNECTIONS} connections):`, ...createGoals);
  const goals = figures.filter((f) => f.figure.startsWith('posts.list')).map((f) => {
    const check = totalChecks.find((c) => c.figure === f.figure);
    const exact = check !== undefined && check.total === check.count;
    const cpu = cpuPerRequest.get(f.figure);
    return `- ${f.figure}: p99 ${f.p99_ms.toFixed(2)} ms (goal < ${GOAL_LIST_P99_MS} ms) at ${f.rps.toFixed(0)} req/s, `
      + `${((f.ratio ?? 0) * 100).toFixed(1)}% of the bare route's ${f.ceiling_value?.toFixed(0)} req/s; `
      + `CPU per request: API ${cpu?.api.toFixed(0)} µs + PostgreSQL ${cpu?.db.toFixed(0)} µs`
      + `${cpu?.apiLoopSaturatedPct === undefined ? '' : ` (API event loop saturated in ${cpu.apiLoopSaturatedPct.toFixed(0)}% of 50 ms windows)`}; `
      + `total ${check?.total} ${exact ? '=' : '≠'} count(*) ${check?.count}: ${f.p99_ms < GOAL_LIST_P99_MS && exact ? 'PASS' : 'MISS'}`;
  });
  if (goals.length) {
    lines.push('', `List goals (${listPosts.toLocaleString('en-US')} posts per shape, ${CONNECTIONS} connections, ${listDurationSec} s per figure; `
      + `load average ${listLoad.join(' at the start, ')} at the end):`, ...goals);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report: () => figures.length && printTable() });
