// The ceilings Crier's figures are compared with, measured in the same run on the same machine:
// what bare Fastify serves (the HTTP ceiling), and how many single-row insert transactions the
// database commits through a pool like the API's (the write ceiling).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../src/db/embedded.ts';
import { createPool, type Db } from '../src/db/pool.ts';
import { measure, type Measurement } from './load.ts';
import { backendCpu, backendCpuUsed, spawnNode, waitForHttp } from './proc.ts';
import { percentile } from './stats.ts';

export interface HttpLoadShape {
  connections: number;
  durationSec: number;
  warmupSec: number;
}

export interface BareCeilings {
  get: Measurement;
  /** Measured when a POST body is given (the create figures' ceiling). */
  post?: Measurement;
}

/**
 * Runs bench/bare-server.ts in a child process and loads GET /bare (and POST /bare, given a body) with
 * the same connections, duration, headers and body size as the Crier figures.
 */
export async function measureBareFastify(
  repoRoot: string,
  shape: HttpLoadShape,
  request: { headers: Record<string, string>; postBody?: string },
): Promise<BareCeilings> {
  const port = await freePort();
  const server = spawnNode('bare', path.join(repoRoot, 'bench', 'bare-server.ts'), [], { ...process.env, PORT: String(port) }, repoRoot);
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/bare`);
    const base = { url, connections: shape.connections, durationSec: shape.durationSec, headers: request.headers };
    const get = await measure(server.pid, { ...base, method: 'GET', path: '/bare' }, shape.warmupSec);
    if (request.postBody === undefined) return { get };
    const post = await measure(server.pid, { ...base, method: 'POST', path: '/bare', body: request.postBody }, shape.warmupSec);
    return { get, post };
  } finally {
    await server.stop();
  }
}

export interface RawInsertCeiling {
  tps: number;
  p50_ms: number;
  p99_ms: number;
  transactions: number;
  /** CPU seconds this process (the loops' client) used over the measured run. */
  clientCpuSeconds: number;
  /** CPU seconds the pool's PostgreSQL backends used over the measured run; null where /proc cannot show them. */
  databaseCpuSeconds: number | null;
  elapsedSec: number;
}

const SCRATCH_TABLE = 'bench_raw_insert';

/**
 * `loops` concurrent loops, each doing BEGIN; INSERT one row; COMMIT through a pool of `poolSize`
 * (the API's DATABASE_POOL_SIZE), checking a client out per transaction as Crier's withTransaction
 * does. Commits pay the server's durability settings (fsync, synchronous_commit: logged at start)
 * like a created post's, so this is the rate at which this PostgreSQL can commit single small
 * writes: an upper bound for POST /v1/posts, which needs at least one such transaction.
 */
export async function measureRawInserts(
  databaseUrl: string,
  options: { poolSize: number; loops: number; durationSec: number; warmupSec: number; orgId: number },
): Promise<RawInsertCeiling> {
  // Its own application_name, so that its backends' CPU can be read from /proc.
  const url = new URL(databaseUrl);
  const appName = `crier-bench-raw-insert-${process.pid}`;
  url.searchParams.set('application_name', appName);
  const pool = createPool(url.toString(), options.poolSize);
  try {
    await pool.query(`DROP TABLE IF EXISTS ${SCRATCH_TABLE}`);
    // Shaped like a small posts row: identity key, org id, text, default timestamp.
    await pool.query(`CREATE TABLE ${SCRATCH_TABLE} (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      org_id bigint NOT NULL,
      content text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    if (options.warmupSec > 0) await insertLoops(pool, options.loops, options.warmupSec, options.orgId);
    const backendsBefore = await backendCpu(pool, [appName]);
    const cpuBefore = process.cpuUsage();
    const { latencies, elapsedSec } = await insertLoops(pool, options.loops, options.durationSec, options.orgId);
    const client = process.cpuUsage(cpuBefore);
    const databaseCpuSeconds = backendCpuUsed(backendsBefore, await backendCpu(pool, [appName]));
    const sorted = Float64Array.from(latencies).sort();
    return {
      tps: latencies.length / elapsedSec, p50_ms: percentile(sorted, 0.5), p99_ms: percentile(sorted, 0.99), transactions: latencies.length,
      clientCpuSeconds: (client.user + client.system) / 1e6, databaseCpuSeconds, elapsedSec,
    };
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${SCRATCH_TABLE}`).catch(() => {});
    await pool.end();
  }
}

async function insertLoops(pool: Db, loops: number, durationSec: number, orgId: number): Promise<{ latencies: number[]; elapsedSec: number }> {
  const started = performance.now();
  const deadline = started + durationSec * 1000;
  const latencies: number[] = [];
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO ${SCRATCH_TABLE} (org_id, content) VALUES ($1, $2)`, [orgId, 'bench']);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  // Transactions in flight at the deadline still finish and count, so divide by the real elapsed time.
  return { latencies, elapsedSec: (performance.now() - started) / 1000 };
}
