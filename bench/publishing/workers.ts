// Publishing workers as deployed: `crier worker` child processes (bench/proc.ts starts them), each
// with its own PostgreSQL application_name (in its DATABASE_URL, so that it covers pg-boss's pool,
// which names its connections "pgboss" otherwise) so the bench can tell from pg_stat_activity when a
// worker has started polling the queue, without parsing its output, and which PostgreSQL backends
// serve it (their CPU is the database's share of the work, when PostgreSQL runs on this machine).
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/db/pool.ts';
import { cpuSeconds, peakRssMb, resetPeakRss, spawnNode, type Child } from '../proc.ts';

export interface WorkerSet {
  children: Child[];
  /** Resets each worker's peak RSS and CPU baseline: what `sample()` reports covers what follows. */
  mark(): Promise<void>;
  /**
   * Per worker: peak RSS (MB) and CPU used since `mark()` (% of one core); and the CPU of the
   * PostgreSQL backends serving all the workers (% of one core; null when PostgreSQL is not on this
   * machine). Backends are matched by application_name; one that closes between mark and sample
   * takes its CPU with it, so this is a slight underestimate.
   */
  sample(): Promise<{ peakRssMb: number[]; cpuPct: number[]; dbCpuPct: number | null }>;
  stop(): Promise<void>;
}

let warnedCumulativeRss = false;

export async function startWorkers(options: {
  count: number;
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  db: Db;
  log: (line: string) => void;
}): Promise<WorkerSet> {
  const children: Child[] = [];
  const appNames: string[] = [];
  const stop = () => Promise.all(children.map((c) => c.stop())).then(() => {});
  try {
    for (let i = 1; i <= options.count; i++) {
      const appName = `crier-bench-worker-${process.pid}-${i}`;
      appNames.push(appName);
      const url = new URL(options.env.DATABASE_URL!);
      url.searchParams.set('application_name', appName);
      const env = { ...options.env, DATABASE_URL: url.toString() };
      const child = spawnNode(`worker${i}`, path.join(options.repoRoot, 'bin', 'crier.js'), ['worker'], env, options.repoRoot);
      children.push(child);
      await waitUntilPolling(options.db, appName, child.pid);
      options.log(`worker${i} pid ${child.pid} is polling the publish queue`);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  let cpuBefore: number[] = [];
  let backendsBefore: Map<number, number> | null = null;
  let markedAt = performance.now();
  return {
    children,
    async mark() {
      for (const c of children) {
        if (!(await resetPeakRss(c.pid)) && !warnedCumulativeRss) {
          warnedCumulativeRss = true;
          options.log('note: cannot reset VmHWM here; worker peak RSS figures are peaks since the process started');
        }
      }
      cpuBefore = await Promise.all(children.map((c) => cpuSeconds(c.pid)));
      backendsBefore = await backendCpu(options.db, appNames);
      markedAt = performance.now();
    },
    async sample() {
      const elapsedSec = (performance.now() - markedAt) / 1000;
      const cpu = await Promise.all(children.map((c) => cpuSeconds(c.pid)));
      const backends = await backendCpu(options.db, appNames);
      let dbCpuPct: number | null = null;
      if (backends && backendsBefore) {
        let used = 0;
        for (const [pid, seconds] of backends) used += seconds - (backendsBefore.get(pid) ?? 0);
        dbCpuPct = (used / elapsedSec) * 100;
      }
      return {
        dbCpuPct,
        peakRssMb: await Promise.all(children.map((c) => peakRssMb(c.pid))),
        cpuPct: cpu.map((s, i) => ((s - (cpuBefore[i] ?? 0)) / elapsedSec) * 100),
      };
    },
    stop,
  };
}

/** CPU seconds of each PostgreSQL backend serving these application names; null when unreadable. */
async function backendCpu(db: Db, appNames: string[]): Promise<Map<number, number> | null> {
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1::text[])', [appNames]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    // Unreadable: a backend that just closed, or PostgreSQL on another machine (BENCH_DATABASE_URL).
    await cpuSeconds(pid).then((seconds) => out.set(pid, seconds), () => {});
  }
  return rows.length > 0 && out.size === 0 ? null : out;
}

/**
 * A worker is ready once one of its connections has run pg-boss's fetch (`... FOR UPDATE OF j SKIP
 * LOCKED`): it has migrated, started pg-boss and registered its handler.
 */
async function waitUntilPolling(db: Db, appName: string, pid: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ polling: boolean; connections: number }>(
      `SELECT count(*)::int AS connections, coalesce(bool_or(query LIKE '%SKIP LOCKED%'), false) AS polling
         FROM pg_stat_activity WHERE application_name = $1`,
      [appName],
    );
    if (rows[0]!.polling) return;
    try {
      process.kill(pid, 0);
    } catch {
      throw new Error(`worker ${appName} (pid ${pid}) exited during start-up (see its output above)`);
    }
    await sleep(100);
  }
  const { rows } = await db.query<{ state: string; query: string }>('SELECT state, query FROM pg_stat_activity WHERE application_name = $1', [appName]);
  const seen = rows.map((r) => `${r.state}: ${r.query.replace(/\s+/g, ' ').slice(0, 200)}`).join(' | ') || 'no connection';
  throw new Error(`worker ${appName} (pid ${pid}) did not start polling the publish queue within ${timeoutMs} ms (its connections: ${seen})`);
}
