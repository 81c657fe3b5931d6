// `npm run bench:webhooks` (full) / `npm run bench:webhooks -- --smoke` (short, for CI).
//
// Measures webhook delivery with Crier as deployed: `crier api` and `crier worker` child processes on
// a fresh database, a local HTTPS receiver in this process, the X emulator (in this process) as the
// network.
//
//  1. webhook.throughput: N post.published events committed at once through the outbox (emitEvent,
//     one transaction) to one signed webhook; events/s from the commit to the last event the receiver
//     got. Ceiling: ceiling.signed_posts, a plain loop in its own process that signs (both signatures)
//     and POSTs envelopes of the same size to the same receiver, at the worker's concurrency.
//  2. webhook.publish_latency: posts created through POST /v1/posts on X; from the create request to
//     the receiver getting post.published, p50/p99. Ceiling: ceiling.publish_to_tweet, from the same
//     create request to the tweet existing on the emulator (the same posts): what the webhook adds is
//     the difference (webhook_only_*).
//
// One JSON line per figure on stdout, then a Markdown table; progress on stderr. Exits 1 when an
// event was lost, failed an attempt, or a post did not publish. Database: BENCH_DATABASE_URL (admin
// URL allowed to CREATE DATABASE), else a throwaway embedded PostgreSQL.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { startXEmulator, type XEmulator } from '../emulators/x/server.ts';
import { loadConfig } from '../src/config.ts';
import { NETWORK_LIST } from '../src/networks/registry.ts';
import { freePort } from '../src/db/embedded.ts';
import { withTransaction, type Db } from '../src/db/pool.ts';
import { createSecretBox } from '../src/security/crypto.ts';
import { emitEvent } from '../src/webhooks/outbox.ts';
import { signatureHeaders } from '../src/webhooks/signing.ts';
import { selfSignedCertificate } from '../test/helpers/https-server.ts';
import { createXFixture, type PublishFixture } from './publishing/fixture.ts';
import { cpuSeconds, machineBusyShare, stopChild, waitForHttp } from './proc.ts';
import { runCleanups, type Cleanup } from './cleanup.ts';
import { openBenchDatabase } from './database.ts';
import { percentile, round } from './stats.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const log = (line: string) => process.stderr.write(`bench:webhooks: ${line}\n`);
const { values: flags } = parseArgs({
  options: { smoke: { type: 'boolean', default: false }, 'ceiling-child': { type: 'string' } },
});
const profile = flags.smoke ? { name: 'smoke', events: 1_000, posts: 40 } : { name: 'full', events: 5_000, posts: 200 };
/** Attempts one worker sends at once, parsed as Crier parses it (same default). */
const CONCURRENCY = loadConfig({ CRIER_WEBHOOK_CONCURRENCY: process.env.CRIER_WEBHOOK_CONCURRENCY }, NETWORK_LIST).webhooks.concurrency;
/** Posts in flight at once in the latency figure. */
const LATENCY_LANES = 4;
const X_ACCOUNTS = 10;

interface Figure {
  figure: string;
  count: number;
  events_per_s: number | null;
  elapsed_s: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  ceiling: string | null;
  ceiling_value: number | null;
  ratio: number | null;
  [extra: string]: unknown;
}

const figures: Figure[] = [];
const problems: string[] = [];
function emit(figure: Figure): void {
  figures.push(figure);
  process.stdout.write(JSON.stringify(figure) + '\n');
}

// ---- the receiver: records when each event first arrived ---------------------------------------

interface Receiver {
  url: string;
  ca: string;
  /** Event id -> Date.now() of its first arrival. */
  firstSeen: Map<string, number>;
  duplicates: number;
  /** Resolves when post.published for this public post id arrives. */
  published(postId: string): Promise<number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const { key, cert } = await selfSignedCertificate();
  const firstSeen = new Map<string, number>();
  const postWaiters = new Map<string, (at: number) => void>();
  const postArrivals = new Map<string, number>();
  let duplicates = 0;
  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.writeHead(200).end();
      const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (firstSeen.has(envelope.id)) duplicates++;
      else firstSeen.set(envelope.id, at);
      const postId = envelope.data?.postId;
      if (envelope.event === 'post.published' && typeof postId === 'string') {
        postArrivals.set(postId, at);
        postWaiters.get(postId)?.(at);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: cert,
    firstSeen,
    get duplicates() {
      return duplicates;
    },
    published: (postId) => {
      const seen = postArrivals.get(postId);
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => postWaiters.set(postId, resolve));
    },
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

// ---- child processes --------------------------------------------------------------------------

interface CrierChild {
  pid: number;
  stop(): Promise<void>;
}

/** `crier <role>`; resolves once it prints that it is running. Its output goes to stderr, prefixed. */
async function startCrier(role: 'api' | 'worker', env: NodeJS.ProcessEnv): Promise<CrierChild> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'crier.js'), role], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`crier ${role} did not start within 60 s`)), 60_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim()) process.stderr.write(`[${role}] ${line}\n`);
        if (chunk.includes('Crier is running')) {
          clearTimeout(timer);
          resolve();
        }
      });
    }
    void exited.then(() => reject(new Error(`crier ${role} exited during start-up`)));
  });
  return { pid: child.pid!, stop: () => stopChild(child, exited) };
}

// ---- the ceiling: signed POSTs from a plain loop, in a process of its own ----------------------

interface CeilingArgs {
  url: string;
  caFile: string;
  secret: string;
  count: number;
  concurrency: number;
  template: string;
}

/** Runs in the child: prints {elapsedMs, latencies} as one JSON line. */
async function runCeilingChild(args: CeilingArgs): Promise<void> {
  const agent = new Agent({ connect: { ca: await readFile(args.caFile, 'utf8') } });
  const latencies: number[] = [];
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < args.count; i = next++) {
      const id = `ceiling-${i}-${randomBytes(4).toString('hex')}`;
      const body = args.template.replace('__ID__', id);
      const headers = { 'Content-Type': 'application/json', 'User-Agent': 'Service-Webhooks/1.0', ...signatureHeaders(args.secret, id, Math.floor(Date.now() / 1000), body) };
      const t0 = performance.now();
      const res = await request(args.url, { method: 'POST', headers, body, dispatcher: agent });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      if (res.statusCode !== 200) throw new Error(`receiver answered ${res.statusCode}`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: args.concurrency }, loop));
  const elapsedMs = performance.now() - started;
  await agent.close();
  process.stdout.write(JSON.stringify({ elapsedMs, latencies }) + '\n');
}

async function measureCeiling(args: CeilingArgs): Promise<{ elapsedMs: number; latencies: number[] }> {
  const child = spawn(process.execPath, [import.meta.filename, '--ceiling-child', JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the ceiling loop failed (exit ${code})`);
  return JSON.parse(out.trim());
}

// ---- setup ------------------------------------------------------------------------------------

interface Env {
  db: Db;
  x: XEmulator;
  fixture: PublishFixture;
  receiver: Receiver;
  apiUrl: string;
  caFile: string;
  secret: string;
  webhookId: number;
  worker: CrierChild;
}

const cleanups: (() => Promise<unknown>)[] = [];

async function setUp(): Promise<Env> {
  const dbCleanups: Cleanup[] = [];
  cleanups.push(() => runCleanups(dbCleanups, log));
  const { db, databaseUrl, tempDir } = await openBenchDatabase('crier_bench_webhooks', dbCleanups, log);

  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const caFile = path.join(tempDir, 'receiver-ca.pem');
  await writeFile(caFile, receiver.ca);
  // The emulator's own limits (and its duplicate check) would throttle or refuse the bench's posts.
  const x = await startXEmulator({ rateLimits: { 'POST /2/tweets': 1e9, 'GET /2/users/:id/tweets': 1e9, 'GET /2/users/me': 1e9 }, duplicateWindowMs: 0 });
  cleanups.push(() => x.close());
  const secretKey = randomBytes(32);
  const fixture = await createXFixture(db, createSecretBox(secretKey), x, X_ACCOUNTS);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    CRIER_SECRET_KEY: secretKey.toString('hex'),
    CRIER_DATA_DIR: path.join(tempDir, 'crier-data'),
    CRIER_X_API_URL: x.url,
    CRIER_ALLOW_LOOPBACK_FETCH: 'true', // the receiver is on this machine
    CRIER_EXTRA_CA_FILE: caFile,
    CRIER_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
  };
  const port = await freePort();
  // Per-key rate limits would refuse the latency figure's creates: they are not what is measured here.
  const api = await startCrier('api', { ...env, PORT: String(port), HOST: '127.0.0.1', CRIER_RATE_LIMIT_ENABLED: 'false' });
  cleanups.push(() => api.stop());
  const apiUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${apiUrl}/healthz`);
  const worker = await startCrier('worker', env);
  cleanups.push(() => worker.stop());

  const created = await fetch(`${apiUrl}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', url: `${receiver.url}/hook`, events: ['post.published'], generateSecret: true }),
  });
  const webhook = (await created.json()).data;
  if (created.status !== 201) throw new Error(`webhook not created: ${created.status} ${JSON.stringify(webhook)}`);
  return { db, x, fixture, receiver, apiUrl, caFile, secret: webhook.secret, webhookId: webhook.id, worker };
}

// ---- figure 1: throughput ---------------------------------------------------------------------

const eventData = (fixture: PublishFixture, i: number, tag: string) => ({
  postId: `${tag}-${i}`,
  orgId: 'benchOrg',
  socialAccounts: [{ accountId: fixture.accounts[0]!.id, network: 'x', username: 'bench_x_0', platformPostId: String(1e18 + i), platformPostUrl: `https://x.com/bench_x_0/status/${1e18 + i}` }],
});

/** Commits `count` events in one transaction; returns their ids and the time of the commit. */
async function emitBatch(env: Env, count: number, tag: string): Promise<{ ids: string[]; committedAt: number }> {
  const ids = await withTransaction(env.db, async (tx) => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(await emitEvent(tx, env.fixture.orgId, 'post.published', eventData(env.fixture, i, tag)));
    return out;
  });
  return { ids, committedAt: Date.now() };
}

async function waitForEvents(env: Env, ids: string[], label: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (!ids.every((id) => env.receiver.firstSeen.has(id))) {
    if (Date.now() > deadline) throw new Error(`${label}: only ${ids.filter((id) => env.receiver.firstSeen.has(id)).length}/${ids.length} events arrived`);
    await sleep(20);
  }
}

async function throughputFigure(env: Env): Promise<void> {
  const warm = await emitBatch(env, 200, 'warm');
  await waitForEvents(env, warm.ids, 'warm-up');

  log(`ceiling.signed_posts: ${profile.events} signed POSTs from a plain loop, ${CONCURRENCY} concurrent`);
  const template = JSON.stringify({ id: '__ID__', event: 'post.published', timestamp: new Date().toISOString(), data: eventData(env.fixture, 0, 'ceiling') });
  const ceiling = await measureCeiling({ url: `${env.receiver.url}/hook`, caFile: env.caFile, secret: env.secret, count: profile.events, concurrency: CONCURRENCY, template });
  const ceilingRate = profile.events / (ceiling.elapsedMs / 1000);
  const sorted = Float64Array.from(ceiling.latencies).sort();
  emit({
    figure: 'ceiling.signed_posts', count: profile.events, events_per_s: round(ceilingRate, 1), elapsed_s: round(ceiling.elapsedMs / 1000, 2),
    p50_ms: round(percentile(sorted, 0.5), 2), p99_ms: round(percentile(sorted, 0.99), 2), ceiling: null, ceiling_value: null, ratio: null, concurrency: CONCURRENCY,
  });

  log(`webhook.throughput: ${profile.events} events committed at once`);
  const cpu0 = await cpuSeconds(env.worker.pid);
  const batch = await emitBatch(env, profile.events, 'tp');
  await waitForEvents(env, batch.ids, 'webhook.throughput');
  const last = Math.max(...batch.ids.map((id) => env.receiver.firstSeen.get(id)!));
  const elapsed = (last - batch.committedAt) / 1000;
  const workerCpu = ((await cpuSeconds(env.worker.pid)) - cpu0) / elapsed * 100;
  const rate = profile.events / elapsed;
  const lag = Float64Array.from(batch.ids.map((id) => env.receiver.firstSeen.get(id)! - batch.committedAt)).sort();
  await verifyAttempts(env, batch.ids, 'webhook.throughput');
  emit({
    figure: 'webhook.throughput', count: profile.events, events_per_s: round(rate, 1), elapsed_s: round(elapsed, 2),
    p50_ms: round(percentile(lag, 0.5), 1), p99_ms: round(percentile(lag, 0.99), 1),
    ceiling: 'ceiling.signed_posts', ceiling_value: round(ceilingRate, 1), ratio: round(rate / ceilingRate, 3),
    concurrency: CONCURRENCY, worker_cpu_pct: round(workerCpu, 0), duplicates: env.receiver.duplicates,
  });
}

/**
 * Every event delivered in exactly one successful attempt: a retry or a failure is a broken run. The
 * receiver answers before the worker records the result, so the last results may still be on their way.
 */
async function verifyAttempts(env: Env, eventIds: string[], label: string): Promise<void> {
  let rows: { state: string; n: number; attempts: number }[] = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    ({ rows } = await env.db.query<{ state: string; n: number; attempts: number }>(
      `SELECT d.state, count(*)::int AS n, sum(d.attempt_count)::int AS attempts FROM webhook_deliveries d
        WHERE d.webhook_id = $1 AND d.event_id = ANY($2::uuid[]) GROUP BY d.state`,
      [env.webhookId, eventIds],
    ));
    if (!rows.some((r) => r.state === 'pending')) break;
  }
  const delivered = rows.find((r) => r.state === 'delivered');
  if (rows.length !== 1 || delivered?.n !== eventIds.length) problems.push(`${label}: deliveries not all delivered: ${JSON.stringify(rows)}`);
  else if (delivered.attempts !== eventIds.length) problems.push(`${label}: ${delivered.attempts - eventIds.length} retries were needed`);
}

// ---- figure 2: publish-to-webhook latency -----------------------------------------------------

async function latencyFigure(env: Env): Promise<void> {
  log(`webhook.publish_latency: ${profile.posts} posts on X, ${LATENCY_LANES} in flight`);
  /** Per post: create request -> receiver got post.published, and -> tweet created on the emulator. */
  const samples: { receiver: number; tweet: number }[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < profile.posts; i = next++) {
      const account = env.fixture.accounts[i % env.fixture.accounts.length]!;
      const text = `latency ${i} ${randomBytes(3).toString('hex')}`;
      const sentAt = Date.now();
      const res = await fetch(`${env.apiUrl}/v1/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${env.fixture.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ accounts: [account.id], content: text }),
      });
      const body = await res.json();
      if (res.status !== 200) {
        problems.push(`webhook.publish_latency: create answered ${res.status}`);
        continue;
      }
      const arrivedAt = await withTimeout(env.receiver.published(body.post.id), 60_000, `post.published for ${body.post.id}`);
      const tweet = env.x.tweets().find((t) => t.text === text);
      if (!tweet) problems.push(`webhook.publish_latency: no tweet for post ${body.post.id}`);
      else samples.push({ receiver: arrivedAt - sentAt, tweet: Date.parse(tweet.createdAt) - sentAt });
    }
  };
  await Promise.all(Array.from({ length: LATENCY_LANES }, lane));
  const receiver = Float64Array.from(samples.map((s) => s.receiver)).sort();
  const tweet = Float64Array.from(samples.map((s) => s.tweet)).sort();
  const webhookOnly = Float64Array.from(samples.map((s) => s.receiver - s.tweet)).sort();
  emit({
    figure: 'ceiling.publish_to_tweet', count: tweet.length, events_per_s: null, elapsed_s: null,
    p50_ms: round(percentile(tweet, 0.5), 1), p99_ms: round(percentile(tweet, 0.99), 1), ceiling: null, ceiling_value: null, ratio: null,
  });
  const p50 = percentile(receiver, 0.5);
  const ceilingP50 = percentile(tweet, 0.5);
  emit({
    figure: 'webhook.publish_latency', count: receiver.length, events_per_s: null, elapsed_s: null,
    p50_ms: round(p50, 1), p99_ms: round(percentile(receiver, 0.99), 1),
    ceiling: 'ceiling.publish_to_tweet', ceiling_value: round(ceilingP50, 1), ratio: round(ceilingP50 / p50, 3),
    webhook_only_p50_ms: round(percentile(webhookOnly, 0.5), 1), webhook_only_p99_ms: round(percentile(webhookOnly, 0.99), 1),
  });
}

// The timer is cleared once the promise settles: a pending one kept the finished bench alive for a minute.
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---- report -----------------------------------------------------------------------------------

function table(): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const lines = [
    '| figure | count | events/s | p50 ms | p99 ms | ceiling | ceiling value | ratio |',
    '|---|---:|---:|---:|---:|---|---:|---:|',
    ...figures.map((f) => `| ${f.figure} | ${f.count} | ${cell(f.events_per_s)} | ${cell(f.p50_ms)} | ${cell(f.p99_ms)} | ${cell(f.ceiling)} | ${cell(f.ceiling_value)} | ${cell(f.ratio)} |`),
  ];
  const latency = figures.find((f) => f.figure === 'webhook.publish_latency');
  if (latency) lines.push('', `Webhook share of the publish latency (receiver time − tweet time): p50 ${latency.webhook_only_p50_ms} ms, p99 ${latency.webhook_only_p99_ms} ms.`);
  lines.push('', 'webhook.throughput p50/p99: time from the commit of the batch to each event’s arrival. webhook.publish_latency ratio: ceiling p50 / figure p50.');
  return lines.join('\n');
}

async function main(): Promise<number> {
  log(`${profile.name} run: ${profile.events} events, ${profile.posts} posts; deliverer concurrency ${CONCURRENCY}; ${os.cpus().length} CPUs`);
  const busy = await machineBusyShare();
  if (busy > 0.2) log(`WARNING: ${(busy * 100).toFixed(0)}% of the machine's CPU was busy before the bench started; figures will be low and noisy`);
  try {
    const env = await setUp();
    await throughputFigure(env);
    await latencyFigure(env);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: Error) => log(`cleanup failed: ${error.message}`));
  }
  process.stdout.write('\n' + table() + '\n');
  for (const problem of problems) log(`BROKEN: ${problem}`);
  return problems.length ? 1 : 0;
}

if (flags['ceiling-child']) {
  await runCeilingChild(JSON.parse(flags['ceiling-child']) as CeilingArgs);
} else {
  process.exitCode = await main().catch((error: unknown) => {
    log(`failed: ${(error as Error).stack ?? String(error)}`);
    return 1;
  });
}
