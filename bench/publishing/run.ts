// `npm run bench:publish` (full, several minutes) / `npm run bench:publish -- --smoke` (short, for CI).
//
// Measures Crier's publishing engine end to end, with the workers started as child processes exactly
// as deployed (`crier worker`) and the X emulator (in this process) as the network:
//
//  1. publish.e2e.workers_N: throughput, targets/s, from the first POST /v1/posts (through a started
//     `crier api`, each post with one X target, queued at once) to the moment the emulator holds all
//     of them as tweets, with one and with two workers; against the emulator's own ceiling, a plain
//     concurrent loop of POST /2/tweets at the workers' total concurrency.
//  2. schedule.lateness: with a backlog of pending posts scheduled 1-7 days ahead, a burst of posts all
//     due in the same second is published by two workers; lateness = the tweet's creation time on the
//     emulator minus the scheduled time.
//
// Prints one JSON line per figure on stdout, then Markdown tables; progress goes to stderr. Exits 1
// when something broke (a target not published, a tweet missing or posted twice, a retry, a create
// that failed, a crash); slow figures are reported, not failed.
//
// Database: BENCH_DATABASE_URL (an admin URL allowed to CREATE DATABASE), else a throwaway embedded
// PostgreSQL in a temporary directory. Either way a fresh database of its own, dropped at the end.
import { createCleanups, runBenchmark } from '../cleanup.ts';
import { openBenchDatabase } from '../database.ts';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startXEmulator, type XEmulator, type XTweet } from '../../emulators/x/server.ts';
import { loadConfig } from '../../src/config.ts';
import { freePort } from '../../src/db/embedded.ts';
import type { Db } from '../../src/db/pool.ts';
import { decodeId } from '../../src/ids.ts';
import { createBoss } from '../../src/queue/boss.ts';
import { PUBLISH_QUEUE } from '../../src/queue/queues.ts';
import { createSecretBox } from '../../src/security/crypto.ts';
import { machineBusyShare, spawnNode, waitForHttp } from '../proc.ts';
import { percentile, round } from '../stats.ts';
import { measureEmulatorCeiling } from './ceiling.ts';
import { createXFixture, seedQueuedPosts, type PublishFixture } from './fixture.ts';
import { startWorkers } from './workers.ts';

const started = performance.now();
const { values: flags } = parseArgs({ options: { smoke: { type: 'boolean', default: false } } });
const profile = flags.smoke
  ? { name: 'smoke', posts: 300, backlog: 10_000, due: 1_000, leadSec: 12 }
  : { name: 'full', posts: 2_000, backlog: 100_000, due: 10_000, leadSec: 15 };
/** Accounts the posts are spread over (round robin), each its own emulator user and token. */
const ACCOUNTS = 50;
/** Concurrent POST /v1/posts loops, as bench/run.ts's CONNECTIONS. */
const CREATE_CONNECTIONS = 20;
/** Jobs one worker runs at once, parsed the way Crier parses it (same default), passed on to the workers. */
const CONCURRENCY = loadConfig({ CRIER_PUBLISH_CONCURRENCY: process.env.CRIER_PUBLISH_CONCURRENCY }).publishing.concurrency;
/** A phase that publishes nothing new for this long is stuck: reported as broken. */
const STALL_MS = 60_000;
/** Ceiling runs post at least this many tweets, so that a smoke run's ceiling is not a blink. */
const MIN_CEILING_TWEETS = 2_000;

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const log = (line: string) => process.stderr.write(`bench:publish: ${line}\n`);

// ---- results ---------------------------------------------------------------------------------

interface ThroughputFigure {
  figure: string;
  targets: number;
  targets_per_s: number;
  elapsed_s: number;
  /** When the last create was answered, counted from the first create (figure 1 only). */
  creates_done_s: number | null;
  /**
   * Ceilings: latency of one POST /2/tweets. Crier: duration of one publishing attempt, from the claim
   * to the recorded outcome (attempts.started_at to finished_at), network call included.
   */
  p50_ms: number | null;
  p99_ms: number | null;
  peak_rss_mb: number[] | null;
  worker_cpu_pct: number[] | null;
  /** PostgreSQL backends serving the workers, % of one core (null: PostgreSQL not on this machine). */
  db_cpu_pct: number | null;
  /** CPU of this process (emulator, load generator, polling) over the figure, % of one core. */
  bench_cpu_pct: number;
  ceiling: string | null;
  ceiling_value: number | null;
  ratio: number | null;
}

interface LatenessFigure {
  figure: string;
  targets: number;
  backlog: number;
  workers: number;
  scheduled_at: string;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  min_ms: number;
  /** Duration of one publishing attempt (claim to recorded outcome), as in the throughput figures. */
  attempt_p50_ms: number;
  attempt_p99_ms: number;
  /** From the scheduled second to the last tweet. */
  all_published_s: number;
  /** targets / all_published_s: the burst's publishing rate. */
  targets_per_s: number;
  peak_rss_mb: number[];
  worker_cpu_pct: number[];
  db_cpu_pct: number | null;
  bench_cpu_pct: number;
  /** While the workers wait for the due second, polling over the backlog with nothing due. */
  idle_worker_cpu_pct: number[];
  idle_db_cpu_pct: number | null;
}

const throughput: ThroughputFigure[] = [];
const lateness: LatenessFigure[] = [];
const problems: string[] = [];

function emit(figure: ThroughputFigure | LatenessFigure): void {
  process.stdout.write(JSON.stringify(figure) + '\n');
}

// ---- resources, released in reverse order whatever happens ------------------------------------

const { cleanups, cleanUp } = createCleanups(log);

interface Env {
  db: Db;
  x: XEmulator;
  fixture: PublishFixture;
  apiUrl: string;
  workerEnv: NodeJS.ProcessEnv;
}

async function main(): Promise<void> {
  log(`${profile.name} run: ${profile.posts} posts per throughput figure; ${profile.due} due posts over a backlog of ${profile.backlog}; ` +
    `${ACCOUNTS} X accounts; worker concurrency ${CONCURRENCY}`);
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
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: secretKey.toString('hex'),
    CRIER_DATA_DIR: path.join(tempDir, 'crier-data'), // nothing lands in the repo's ./data
  };
  const workerEnv = { ...baseEnv, CRIER_X_API_URL: x.url, CRIER_PUBLISH_CONCURRENCY: String(CONCURRENCY) };

  const port = await freePort();
  // Per-key request limits would turn the bench's creates into 429s: they are the API's business
  // (bench/run.ts), not the publishing path's, so they are off here.
  const apiEnv = { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', CRIER_RATE_LIMIT_ENABLED: 'false' };
  const api = spawnNode('api', path.join(repoRoot, 'bin', 'crier.js'), ['api'], apiEnv, repoRoot);
  cleanups.push({ label: 'stop Crier API', run: () => api.stop() });
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${apiUrl}/healthz`);
  log(`Crier API pid ${api.pid} on ${apiUrl}; X emulator on ${x.url}`);
  const env: Env = { db, x, fixture, apiUrl, workerEnv };

  // ---- ceilings: the emulator alone ----------------------------------------------------------
  const ceilings = new Map<number, ThroughputFigure>();
  for (const workers of [1, 2]) {
    const concurrency = workers * CONCURRENCY;
    const name = `ceiling.emulator.c${concurrency}`;
    log(`${name}: POST /2/tweets directly, ${concurrency} concurrent loops`);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const c = await measureEmulatorCeiling(x.url, fixture.accounts, {
      concurrency,
      tweets: Math.max(profile.posts, MIN_CEILING_TWEETS),
      warmup: 200,
      tag: `ceiling-c${concurrency}`,
    });
    if (c.failures) problems.push(`${name}: ${c.failures} posts refused by the emulator (first: ${c.firstFailure})`);
    const figure: ThroughputFigure = {
      figure: name,
      targets: c.tweets,
      targets_per_s: round(c.tweetsPerSec, 1),
      elapsed_s: round(c.tweets / c.tweetsPerSec, 2),
      creates_done_s: null,
      p50_ms: round(c.p50_ms, 2),
      p99_ms: round(c.p99_ms, 2),
      peak_rss_mb: null,
      worker_cpu_pct: null,
      db_cpu_pct: null,
      bench_cpu_pct: round(cpuPct(cpu0, t0), 0),
      ceiling: null,
      ceiling_value: null,
      ratio: null,
    };
    ceilings.set(workers, figure);
    throughput.push(figure);
    emit(figure);
  }

  // ---- figure 1: end-to-end throughput ---------------------------------------------------------
  for (const workers of [1, 2]) {
    await throughputFigure(env, workers, ceilings.get(workers)!);
  }

  // ---- figure 2: scheduling lateness over a backlog ------------------------------------------
  await latenessFigure(env, 2);
}

function cpuPct(before: NodeJS.CpuUsage, t0: number): number {
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - t0)) * 100;
}

// ---- figure 1 ---------------------------------------------------------------------------------

async function throughputFigure(env: Env, workerCount: number, ceiling: ThroughputFigure): Promise<void> {
  const name = `publish.e2e.workers_${workerCount}`;
  const workers = await startWorkers({ count: workerCount, repoRoot, env: env.workerEnv, db: env.db, log });
  try {
    // Warm-up through the whole path (JIT, pools, PostgreSQL caches), excluded from the figure.
    const warmTag = `warm-w${workerCount}`;
    const warm = await createPosts(env, 4 * CONCURRENCY * workerCount, warmTag);
    await waitForTargets(env, `${name} warm-up`, warm.postIds, Date.now());
    await verifyPublished(env, `${name} warm-up`, warm.postIds, warmTag);

    await workers.mark();
    const cpu0 = process.cpuUsage();
    const t0perf = performance.now();
    const tag = `e2e-w${workerCount}`;
    log(`${name}: creating ${profile.posts} posts through POST /v1/posts (${CREATE_CONNECTIONS} connections), queued at once`);
    const created = await createPosts(env, profile.posts, tag);
    log(`${name}: ${created.postIds.length} posts created in ${((created.lastAnsweredAt - created.firstSentAt) / 1000).toFixed(1)} s; waiting for the workers`);
    await waitForTargets(env, name, created.postIds, created.firstSentAt);
    const stats = await workers.sample();
    const benchCpu = cpuPct(cpu0, t0perf);
    const { tweets, attemptMs } = await verifyPublished(env, name, created.postIds, tag);
    if (tweets.length === 0) return;
    const lastTweetAt = Math.max(...tweets.map((t) => Date.parse(t.createdAt)));
    const elapsedSec = (lastTweetAt - created.firstSentAt) / 1000;
    const rate = created.postIds.length / elapsedSec;
    const figure: ThroughputFigure = {
      figure: name,
      targets: created.postIds.length,
      targets_per_s: round(rate, 1),
      elapsed_s: round(elapsedSec, 2),
      creates_done_s: round((created.lastAnsweredAt - created.firstSentAt) / 1000, 2),
      p50_ms: round(percentile(attemptMs, 0.5), 2),
      p99_ms: round(percentile(attemptMs, 0.99), 2),
      peak_rss_mb: stats.peakRssMb.map((v) => round(v, 1)),
      worker_cpu_pct: stats.cpuPct.map((v) => round(v, 0)),
      db_cpu_pct: stats.dbCpuPct === null ? null : round(stats.dbCpuPct, 0),
      bench_cpu_pct: round(benchCpu, 0),
      ceiling: ceiling.figure,
      ceiling_value: ceiling.targets_per_s,
      ratio: round(rate / ceiling.targets_per_s, 4),
    };
    throughput.push(figure);
    emit(figure);
  } finally {
    await workers.stop();
  }
}

interface Created {
  postIds: number[];
  /** Date.now() when the first create was sent and when the last one was answered. */
  firstSentAt: number;
  lastAnsweredAt: number;
}

/**
 * POST /v1/posts `count` times from CREATE_CONNECTIONS concurrent loops, post i on account i % N with
 * the content `<tag> <i>`. A post that is not answered 200 (202 = stored without its jobs) is broken.
 */
async function createPosts(env: Env, count: number, tag: string): Promise<Created> {
  const postIds: number[] = [];
  const codes: Record<string, number> = {};
  let firstFailure: string | undefined;
  let next = 0;
  const firstSentAt = Date.now();
  const loop = async () => {
    for (let i = next++; i < count; i = next++) {
      const account = env.fixture.accounts[i % env.fixture.accounts.length]!;
      const res = await fetch(`${env.apiUrl}/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.fixture.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accounts: [account.id], content: `${tag} ${i}` }),
      });
      const text = await res.text();
      codes[res.status] = (codes[res.status] ?? 0) + 1;
      if (res.status === 200) postIds.push(rawPostId(JSON.parse(text).post.id));
      else firstFailure ??= `HTTP ${res.status}: ${text.slice(0, 300)}`;
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONNECTIONS }, loop));
  const lastAnsweredAt = Date.now();
  if (postIds.length !== count) {
    const summary = Object.entries(codes).map(([c, n]) => `${c}: ${n}`).join(', ');
    throw new Error(`${tag}: only ${postIds.length} of ${count} creates answered 200 (${summary}); first failure ${firstFailure}`);
  }
  return { postIds, firstSentAt, lastAnsweredAt };
}

/** The API answers public (sqids) post ids; the bench works with raw ones. */
function rawPostId(publicId: string): number {
  const id = decodeId(publicId);
  if (id === undefined) throw new Error(`the API answered a post id that does not decode: ${publicId}`);
  return id;
}

/**
 * Polls the database until no target of `postIds` is open any more (pending or publishing). Cheap
 * for the emulator in this process (unlike cloning its tweet list on every poll); the figures take
 * their end time from the tweets' own creation times, not from this poll. Throws when nothing
 * moves for STALL_MS (a stuck queue, a dead worker).
 */
async function waitForTargets(env: Env, name: string, postIds: number[], startedAt: number): Promise<void> {
  let lastDone = -1;
  let lastProgressAt = Date.now();
  let lastLogAt = Date.now();
  for (;;) {
    const { rows } = await env.db.query<{ done: number; published: number; total: number }>(
      `SELECT count(*) FILTER (WHERE status NOT IN ('pending', 'publishing'))::int AS done,
              count(*) FILTER (WHERE status = 'published')::int AS published, count(*)::int AS total
         FROM targets WHERE post_id = ANY($1::bigint[])`,
      [postIds],
    );
    const { done, published, total } = rows[0]!;
    if (total > 0 && done === total) return;
    const now = Date.now();
    if (done !== lastDone) {
      lastDone = done;
      lastProgressAt = now;
    } else if (now - lastProgressAt > STALL_MS && now > startedAt) {
      throw new Error(`${name}: stuck at ${done}/${total} targets done (${published} published) for ${STALL_MS / 1000} s`);
    }
    if (now - lastLogAt >= 10_000) {
      lastLogAt = now;
      log(`${name}: ${published}/${total} published after ${((now - startedAt) / 1000).toFixed(0)} s`);
    }
    await sleep(250);
  }
}

/**
 * Every target of `postIds` published, with exactly one tweet each on the emulator (content
 * `<tag> ...`, unique per target), its platform id being that tweet, in one attempt, its pg-boss job
 * completed. Anything else is recorded as broken. Returns the tweets.
 */
async function verifyPublished(env: Env, name: string, postIds: number[], tag: string): Promise<{ tweets: XTweet[]; attemptMs: Float64Array }> {
  const { rows: targets } = await env.db.query<{ id: number; status: string; platform_post_id: string | null; attempt_count: number; error: string | null }>(
    'SELECT id, status, platform_post_id, attempt_count, error FROM targets WHERE post_id = ANY($1::bigint[]) ORDER BY id',
    [postIds],
  );
  const tweets = env.x.tweets().filter((t) => t.text.startsWith(`${tag} `));
  const before = problems.length;
  const notPublished = targets.filter((t) => t.status !== 'published');
  if (notPublished.length) {
    const sample = notPublished.slice(0, 3).map((t) => `#${t.id} ${t.status}: ${t.error}`).join('; ');
    problems.push(`${name}: ${notPublished.length} of ${targets.length} targets not published (${sample})`);
  }
  if (targets.length !== postIds.length) problems.push(`${name}: ${postIds.length} posts have ${targets.length} targets, expected one each`);
  if (tweets.length !== targets.length) problems.push(`${name}: the emulator holds ${tweets.length} tweets for ${targets.length} targets`);
  const byText = new Map<string, number>();
  for (const t of tweets) byText.set(t.text, (byText.get(t.text) ?? 0) + 1);
  const duplicated = [...byText].filter(([, n]) => n > 1);
  if (duplicated.length) problems.push(`${name}: ${duplicated.length} targets were posted more than once (e.g. "${duplicated[0]![0]}" ${duplicated[0]![1]} times)`);
  const tweetIds = new Set(tweets.map((t) => t.id));
  const unmatched = targets.filter((t) => t.status === 'published' && !tweetIds.has(t.platform_post_id ?? ''));
  if (unmatched.length) problems.push(`${name}: ${unmatched.length} published targets point at no tweet of this figure (e.g. #${unmatched[0]!.id} -> ${unmatched[0]!.platform_post_id})`);
  const retried = targets.filter((t) => t.attempt_count !== 1);
  if (retried.length) problems.push(`${name}: ${retried.length} targets took other than one attempt (e.g. #${retried[0]!.id}: ${retried[0]!.attempt_count})`);
  // A job is completed by pg-boss right after the handler returns, which is after the target row was
  // written: give the last ones a moment before looking.
  let jobs: { state: string; n: number }[] = [];
  for (let tries = 0; tries < 20; tries++) {
    ({ rows: jobs } = await env.db.query<{ state: string; n: number }>(
      `SELECT state::text, count(*)::int AS n FROM pgboss.job
        WHERE name = $1 AND (data->>'postId')::bigint = ANY($2::bigint[]) GROUP BY state ORDER BY state`,
      [PUBLISH_QUEUE, postIds],
    ));
    if (jobs.every((j) => j.state === 'completed')) break;
    await sleep(250);
  }
  const jobSummary = jobs.map((j) => `${j.state}: ${j.n}`).join(', ');
  const completed = jobs.find((j) => j.state === 'completed')?.n ?? 0;
  if (completed !== targets.length || jobs.some((j) => j.state !== 'completed')) {
    problems.push(`${name}: pg-boss jobs for ${targets.length} targets: ${jobSummary}; expected all completed, one each`);
  }
  if (problems.length === before) log(`${name}: verified ${targets.length} targets published, ${tweets.length} tweets, one attempt each, jobs ${jobSummary}`);
  const { rows: attempts } = await env.db.query<{ ms: number }>(
    `SELECT extract(epoch FROM a.finished_at - a.started_at)::float8 * 1000 AS ms
       FROM attempts a JOIN targets t ON t.id = a.target_id
      WHERE t.post_id = ANY($1::bigint[]) AND a.finished_at IS NOT NULL`,
    [postIds],
  );
  return { tweets, attemptMs: Float64Array.from(attempts.map((a) => a.ms)).sort() };
}

// ---- figure 2 ---------------------------------------------------------------------------------

async function latenessFigure(env: Env, workerCount: number): Promise<void> {
  const name = 'schedule.lateness';
  const boss = createBoss(env.workerEnv.DATABASE_URL!, { supervise: false, schedule: false, migrate: false });
  await boss.start();
  try {
    const seedStart = performance.now();
    // Created over the past week, one at a time as through the API, not in a few instants (see
    // seedQueuedPosts: it changes what a fetch costs).
    const backlog = await seedQueuedPosts(env.db, boss, env.fixture, { count: profile.backlog, tag: 'backlog', when: { daysAhead: [1, 7] }, createdOverPastDays: 7 });
    log(`${name}: seeded ${backlog.targetIds.length} pending posts 1-7 days ahead, with their jobs, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    // After a bulk load the planner has no statistics yet, and the created_on update left dead
    // index entries; autovacuum would deal with both within a minute or so on a live system. Do it
    // now so plans and scans are the steady-state ones.
    await env.db.query('VACUUM ANALYZE pgboss.job');
    await env.db.query('ANALYZE posts, containers, targets');

    const workers = await startWorkers({ count: workerCount, repoRoot, env: env.workerEnv, db: env.db, log });
    try {
      // Give the fresh workers the same warm-up as figure 1, on the backlog's database.
      const warm = await createPosts(env, 4 * CONCURRENCY * workerCount, 'warm-lateness');
      await waitForTargets(env, `${name} warm-up`, warm.postIds, Date.now());
      await verifyPublished(env, `${name} warm-up`, warm.postIds, 'warm-lateness');

      const scheduledAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + profile.leadSec * 1000);
      const dueStart = performance.now();
      const due = await seedQueuedPosts(env.db, boss, env.fixture, { count: profile.due, tag: 'due', when: { at: scheduledAt } });
      const slackMs = scheduledAt.getTime() - Date.now();
      log(`${name}: ${due.targetIds.length} posts due at ${scheduledAt.toISOString()} written in ${((performance.now() - dueStart) / 1000).toFixed(1)} s, ${(slackMs / 1000).toFixed(1)} s before they are due`);
      if (slackMs < 1000) problems.push(`${name}: writing the due posts ended ${(slackMs / 1000).toFixed(1)} s before their time; lateness figures are not meaningful (raise leadSec)`);

      // Until the due second the workers poll a queue with nothing due: what that costs.
      await workers.mark();
      await sleep(Math.max(0, scheduledAt.getTime() - Date.now() - 500));
      const idle = await workers.sample();
      log(`${name}: idle polling over the backlog: workers ${idle.cpuPct.map((v) => v.toFixed(0)).join(' + ')}% CPU, their PostgreSQL backends ${idle.dbCpuPct?.toFixed(0) ?? '?'}%`);
      await workers.mark();
      const cpu0 = process.cpuUsage();
      const t0perf = performance.now();
      await waitForTargets(env, name, due.postIds, scheduledAt.getTime());
      const stats = await workers.sample();
      const benchCpu = cpuPct(cpu0, t0perf);
      const { tweets, attemptMs } = await verifyPublished(env, name, due.postIds, 'due');

      // Nothing of the backlog may have been published: none of it is due.
      const { rows } = await env.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM targets WHERE post_id = ANY($1::bigint[]) AND status <> 'pending'",
        [backlog.postIds],
      );
      if (rows[0]!.n) problems.push(`${name}: ${rows[0]!.n} backlog targets (due in 1-7 days) are no longer pending`);
      const early = env.x.tweets().filter((t) => t.text.startsWith('backlog ')).length;
      if (early) problems.push(`${name}: ${early} backlog posts (due in 1-7 days) were published already`);
      if (tweets.length === 0) return;

      const late = Float64Array.from(tweets.map((t) => Date.parse(t.createdAt) - scheduledAt.getTime())).sort();
      const tooEarly = late.filter((ms) => ms < 0).length;
      if (tooEarly) problems.push(`${name}: ${tooEarly} posts were published before their scheduled time (earliest ${late[0]} ms)`);
      const allSec = late[late.length - 1]! / 1000;
      const figure: LatenessFigure = {
        figure: name,
        targets: tweets.length,
        backlog: backlog.targetIds.length,
        workers: workerCount,
        scheduled_at: scheduledAt.toISOString(),
        p50_ms: round(percentile(late, 0.5), 0),
        p99_ms: round(percentile(late, 0.99), 0),
        max_ms: round(late[late.length - 1]!, 0),
        min_ms: round(late[0]!, 0),
        attempt_p50_ms: round(percentile(attemptMs, 0.5), 2),
        attempt_p99_ms: round(percentile(attemptMs, 0.99), 2),
        all_published_s: round(allSec, 2),
        targets_per_s: round(tweets.length / allSec, 1),
        peak_rss_mb: stats.peakRssMb.map((v) => round(v, 1)),
        worker_cpu_pct: stats.cpuPct.map((v) => round(v, 0)),
        db_cpu_pct: stats.dbCpuPct === null ? null : round(stats.dbCpuPct, 0),
        bench_cpu_pct: round(benchCpu, 0),
        idle_worker_cpu_pct: idle.cpuPct.map((v) => round(v, 0)),
        idle_db_cpu_pct: idle.dbCpuPct === null ? null : round(idle.dbCpuPct, 0),
      };
      lateness.push(figure);
      emit(figure);
    } finally {
      await workers.stop();
    }
  } finally {
    await boss.stop({ graceful: false });
  }
}

// ---- report -----------------------------------------------------------------------------------

function printTables(): void {
  const list = (values: number[] | null) => (values ? values.map((v) => v.toFixed(0)).join(' + ') : '—');
  const lines: string[] = [];
  if (throughput.length) {
    lines.push(
      '',
      '| figure | targets | targets/s | elapsed s | p50 ms¹ | p99 ms¹ | worker peak RSS MB | worker CPU % | DB CPU %² | ceiling | % of ceiling |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const f of throughput) {
      const ceiling = f.ceiling ? `${f.ceiling} (${f.ceiling_value})` : '—';
      const pct = f.ratio === null ? '—' : `${(f.ratio * 100).toFixed(1)}%`;
      lines.push(`| ${f.figure} | ${f.targets} | ${f.targets_per_s.toFixed(1)} | ${f.elapsed_s.toFixed(1)} | ${f.p50_ms?.toFixed(2) ?? '—'} | ${f.p99_ms?.toFixed(2) ?? '—'} | ${list(f.peak_rss_mb)} | ${list(f.worker_cpu_pct)} | ${f.db_cpu_pct ?? '—'} | ${ceiling} | ${pct} |`);
    }
  }
  if (lateness.length) {
    lines.push(
      '',
      '| figure | targets | backlog | workers | lateness p50 s | p99 s | max s | all published after s | targets/s | attempt p50 ms¹ | worker peak RSS MB | worker CPU % | DB CPU %² | idle: worker / DB CPU %³ |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const f of lateness) {
      const s = (ms: number) => (ms / 1000).toFixed(2);
      lines.push(`| ${f.figure} | ${f.targets} | ${f.backlog} | ${f.workers} | ${s(f.p50_ms)} | ${s(f.p99_ms)} | ${s(f.max_ms)} | ${f.all_published_s.toFixed(2)} | ${f.targets_per_s.toFixed(1)} | ${f.attempt_p50_ms.toFixed(1)} | ${list(f.peak_rss_mb)} | ${list(f.worker_cpu_pct)} | ${f.db_cpu_pct ?? '—'} | ${list(f.idle_worker_cpu_pct)} / ${f.idle_db_cpu_pct ?? '—'} |`);
    }
  }
  if (lines.length) {
    lines.push(
      '',
      '¹ ceilings: one POST /2/tweets; Crier: one publishing attempt, claim to recorded outcome (attempts table), network call included.',
      '² PostgreSQL backends serving the workers (matched by application_name), % of one core, over the figure.',
      '³ the workers and their backends while waiting for the due second: polling over the backlog with nothing due.',
    );
    process.stdout.write(lines.join('\n') + '\n');
  }
}

await runBenchmark({ main, cleanUp, problems, log, startedMs: started, report: printTables });
