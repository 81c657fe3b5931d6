// `npm run bench` (under 2 minutes) / `npm run bench -- --smoke` (about 40 s, for CI).
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
import { freePort } from '../src/db/embedded.ts';
import { createSecretBox } from '../src/security/crypto.ts';
import { measureBareFastify, measureRawInserts } from './ceilings.ts';
import { measure, type LoadSpec, type Measurement } from './load.ts';
import { machineBusyShare, spawnNode, waitForHttp } from './proc.ts';
import { createFixture, seedPosts } from './seed.ts';
import { round } from './stats.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const profile = flags.smoke
  ? { name: 'smoke', durationSec: 3, warmupSec: 1, seedPosts: 10_000 }
  : { name: 'full', durationSec: 10, warmupSec: 2, seedPosts: 100_000 };
/** One concurrency for every HTTP figure and ceiling, and for the raw insert loops, so they compare. */
const CONNECTIONS = 20;
/** The API's pool size, parsed the way Crier parses it (same default), and passed on to the API. */
const POOL_SIZE = loadConfig({ DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }).databasePoolSize;
/** Aims to report against (not to fail on). */
const AIM_CREATE_RATIO = 0.5;
const AIM_LIST_P99_MS = 20;

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
  log(`${name}: ${m.responses} responses (${codes}); server CPU ${m.serverCpuPct.toFixed(0)}% of one core`);
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
  const shape = { connections: CONNECTIONS, durationSec: profile.durationSec, warmupSec: profile.warmupSec };

  // ---- ceilings -------------------------------------------------------------------------------
  log('ceiling: bare Fastify');
  const bare = await measureBareFastify(repoRoot, shape, { headers: auth, postBody: createBody });
  emit('ceiling.bare_get', bare.get);
  emit('ceiling.bare_post', bare.post);
  for (const [name, m] of [['ceiling.bare_get', bare.get], ['ceiling.bare_post', bare.post]] as const) {
    log(`${name}: ${m.responses} responses; server CPU ${m.serverCpuPct.toFixed(0)}% of one core`);
    if (m.non2xx || m.errors) problems.push(`${name}: ${m.non2xx} non-2xx, ${m.errors} errors`);
  }
  log(`ceiling: raw insert transactions (${CONNECTIONS} loops, pool ${POOL_SIZE})`);
  const raw = await measureRawInserts(databaseUrl, { poolSize: POOL_SIZE, loops: CONNECTIONS, ...shape, orgId: fixture.orgId });
  emit('ceiling.raw_insert_tps', { rps: raw.tps, p50_ms: raw.p50_ms, p99_ms: raw.p99_ms });
  const bareGetCeiling = { name: 'bare_get_rps', value: bare.get.rps };
  const insertCeiling = { name: 'raw_insert_tps', value: raw.tps };

  // ---- the Crier API --------------------------------------------------------------------------
  const seedStart = performance.now();
  const history = await seedPosts(db, fixture, profile.seedPosts);
  log(`seeded ${history.posts} posts, ${history.targets} targets in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const port = await freePort();
  const api = spawnNode('crier', path.join(repoRoot, 'bin', 'crier.js'), ['api'], {
    ...process.env,
    DATABASE_URL: databaseUrl,
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
  const lists: [string, string][] = [
    ['posts.list.limit50', '/v1/posts?limit=50'],
    ['posts.list.by_account', `/v1/posts?social_account_id=${fixture.x.id}&limit=20`],
    ['posts.list.by_tenant_since', `/v1/posts?tenant_id=${fixture.tenantId}&created_after=${encodeURIComponent(history.midpoint.toISOString())}&limit=20`],
  ];
  for (const [name, listPath] of lists) {
    const probe = await fetch(apiUrl + listPath, { headers: auth });
    const page = (await probe.json()) as { pagination?: { total: number; count: number } };
    log(`${name}: ${listPath} -> HTTP ${probe.status}, total ${page.pagination?.total}, page ${page.pagination?.count}`);
    const spec: LoadSpec = { ...base, method: 'GET', path: listPath };
    const m = await measure(api.pid, spec, profile.warmupSec);
    await checkResponses(name, m, spec);
    emit(name, m, bareGetCeiling);
  }

  const postsBefore = await countPosts(db, fixture.orgId);
  const creates: [string, LoadSpec][] = [
    ['posts.create', { ...base, method: 'POST', path: '/v1/posts', body: createBody }],
    ['posts.create.idempotent', { ...base, method: 'POST', path: '/v1/posts', body: createBody, perRequestHeaders: () => ({ 'idempotency-key': randomUUID() }) }],
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
  const aims: string[] = [];
  for (const f of figures) {
    if (f.figure.startsWith('posts.create')) {
      const ok = f.ratio !== null && f.ratio >= AIM_CREATE_RATIO;
      aims.push(`- ${f.figure}: ${((f.ratio ?? 0) * 100).toFixed(1)}% of raw insert tps (aim ≥ ${AIM_CREATE_RATIO * 100}%): ${ok ? 'met' : 'MISSED'}`);
    } else if (f.figure.startsWith('posts.list')) {
      const ok = f.p99_ms < AIM_LIST_P99_MS;
      aims.push(`- ${f.figure}: p99 ${f.p99_ms.toFixed(2)} ms (aim < ${AIM_LIST_P99_MS} ms): ${ok ? 'met' : 'MISSED'}`);
    }
  }
  if (aims.length) lines.push('', 'Aims (reported, not enforced):', ...aims);
  process.stdout.write(lines.join('\n') + '\n');
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report: () => figures.length && printTable() });
