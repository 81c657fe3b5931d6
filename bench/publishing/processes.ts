// Crier processes as deployed: `crier worker` and `crier api` child processes (bench/proc.ts starts
// them), each with its own PostgreSQL application_name (in its DATABASE_URL) so that the bench can
// tell from pg_stat_activity when a worker has started claiming, and which PostgreSQL backends serve
// which process (their CPU is the database's share of the work, when PostgreSQL runs on this machine).
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/db/embedded.ts';
import type { Db } from '../../src/db/pool.ts';
import { backendCpu, backendCpuUsed, cpuSeconds, peakRssMb, resetPeakRss, spawnNode, waitForHttp, watchEventLoops, type Child, type LoopWatch } from '../proc.ts';

export interface CrierProcess extends Child {
  label: string;
  appName: string;
  /** The API's base URL (api processes only). */
  url?: string;
}

export interface Usage {
  /**
   * Per process, in start order: peak RSS (MB), CPU used since `mark()` (% of one core), and
   * `loopSaturatedPct`: the share of 50 ms windows in which its main thread (the event loop) was on
   * the CPU at least 90% of the time (bench/proc.ts watchEventLoops) — a process whose average leaves room can still be full in
   * bursts, and then everything it waits for waits behind its own work.
   */
  processes: { label: string; peakRssMb: number; cpuPct: number; loopSaturatedPct?: number }[];
  /** PostgreSQL backends serving these processes, % of one core; null when PostgreSQL is not on this machine. */
  dbCpuPct: number | null;
  /** Seconds from `mark()` to `sample()`: what the percentages are of. */
  elapsedSec: number;
}

export interface ProcessSet {
  processes: CrierProcess[];
  /** Resets each process's peak RSS and CPU baseline: what `sample()` reports covers what follows. */
  mark(): Promise<void>;
  /**
   * CPU and peak RSS since `mark()`. Backends are matched by application_name; one that closes
   * between mark and sample takes its CPU with it, so the database figure is a slight underestimate.
   */
  sample(): Promise<Usage>;
  stop(): Promise<void>;
}

let warnedCumulativeRss = false;

export interface StartOptions {
  workers: number;
  apis: number;
  repoRoot: string;
  /** Environment of every process; API processes also get PORT, HOST and their URL. */
  env: NodeJS.ProcessEnv;
  db: Db;
  log: (line: string) => void;
  /** Distinguishes the application names of successive sets. */
  tag: string;
  /** Settings of worker `index` (from 1) on top of `env`, e.g. the network emulator it publishes to. */
  workerEnv?: (index: number) => NodeJS.ProcessEnv;
}

export async function startProcesses(options: StartOptions): Promise<ProcessSet> {
  const processes: CrierProcess[] = [];
  const stop = () => Promise.all(processes.map((c) => c.stop())).then(() => {});
  try {
    for (let i = 1; i <= options.apis; i++) processes.push(await startApi(options, i));
    for (let i = 1; i <= options.workers; i++) processes.push(await startWorker(options, i));
  } catch (error) {
    await stop();
    throw error;
  }

  let cpuBefore: number[] = [];
  let backendsBefore: Map<number, number> | null = null;
  let markedAt = performance.now();
  let loops: LoopWatch | undefined;
  const appNames = processes.map((p) => p.appName);
  return {
    processes,
    async mark() {
      for (const c of processes) {
        if (!(await resetPeakRss(c.pid)) && !warnedCumulativeRss) {
          warnedCumulativeRss = true;
          options.log('note: cannot reset VmHWM here; peak RSS figures are peaks since the process started');
        }
      }
      cpuBefore = await Promise.all(processes.map((c) => cpuSeconds(c.pid)));
      backendsBefore = await backendCpu(options.db, appNames);
      loops?.stop();
      loops = watchEventLoops(processes.map((c) => c.pid));
      markedAt = performance.now();
    },
    async sample() {
      const elapsedSec = (performance.now() - markedAt) / 1000;
      const saturated = loops?.stop();
      loops = undefined;
      const cpu = await Promise.all(processes.map((c) => cpuSeconds(c.pid)));
      const backends = await backendCpu(options.db, appNames);
      const used = backendCpuUsed(backendsBefore, backends);
      const dbCpuPct = used === null ? null : (used / elapsedSec) * 100;
      const rss = await Promise.all(processes.map((c) => peakRssMb(c.pid)));
      return {
        dbCpuPct,
        elapsedSec,
        processes: processes.map((c, i) => ({
          label: c.label, peakRssMb: rss[i]!, cpuPct: ((cpu[i]! - (cpuBefore[i] ?? 0)) / elapsedSec) * 100,
          ...(saturated?.[i] === undefined ? {} : { loopSaturatedPct: saturated[i] }),
        })),
      };
    },
    async stop() {
      loops?.stop();
      await stop();
    },
  };
}

function named(options: StartOptions, role: string, i: number): { appName: string; databaseUrl: string } {
  const appName = `crier-bench-${options.tag}-${role}${i}-${process.pid}`;
  const url = new URL(options.env.DATABASE_URL!);
  url.searchParams.set('application_name', appName);
  return { appName, databaseUrl: url.toString() };
}

async function startApi(options: StartOptions, i: number): Promise<CrierProcess> {
  const { appName, databaseUrl } = named(options, 'api', i);
  const port = await freePort();
  const env = { ...options.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' };
  const label = `api${i}`;
  const child = spawnNode(label, path.join(options.repoRoot, 'bin', 'crier.js'), ['api'], env, options.repoRoot);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`);
  options.log(`${label} pid ${child.pid} serves ${url}`);
  return { ...child, label, appName, url };
}

async function startWorker(options: StartOptions, i: number): Promise<CrierProcess> {
  const { appName, databaseUrl } = named(options, 'worker', i);
  const label = `worker${i}`;
  const child = spawnNode(label, path.join(options.repoRoot, 'bin', 'crier.js'), ['worker'], { ...options.env, ...options.workerEnv?.(i), DATABASE_URL: databaseUrl }, options.repoRoot);
  try {
    await waitUntilClaiming(options.db, child.pid);
  } catch (error) {
    await child.stop();
    throw error;
  }
  options.log(`${label} pid ${child.pid} is claiming due targets`);
  return { ...child, label, appName };
}

/**
 * A worker is ready once it holds its lease (a publish_workers row with its pid): it has migrated and
 * entered its loop, whose first turn claims whatever is due.
 */
async function waitUntilClaiming(db: Db, pid: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rowCount } = await db.query('SELECT 1 FROM publish_workers WHERE pid = $1 AND host = $2', [pid, os.hostname()]);
    if (rowCount) return;
    try {
      process.kill(pid, 0);
    } catch {
      throw new Error(`worker pid ${pid} exited during start-up (see its output above)`);
    }
    await sleep(50);
  }
  throw new Error(`worker pid ${pid} did not take its lease within ${timeoutMs} ms`);
}
