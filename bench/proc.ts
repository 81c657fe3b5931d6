// Child processes under test (the Crier API, the bare Fastify server): started as separate processes
// so that their memory can be read from /proc and is not mixed with autocannon's own.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../src/db/pool.ts';

export interface Child {
  pid: number;
  /** Sends SIGTERM, waits for the exit, and SIGKILLs a process that does not leave in time. */
  stop(): Promise<void>;
}

/**
 * Runs `node <script> ...args` and forwards its output to our stderr with a prefix, so that warnings
 * from the server show up without mixing into the JSON lines on stdout.
 */
export function spawnNode(label: string, script: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Child {
  const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) process.stderr.write(`[${label}] ${line}\n`);
    });
  }
  if (child.pid === undefined) throw new Error(`could not start ${label}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { pid: child.pid, stop: () => stopChild(child, exited) };
}

/** SIGTERM, then SIGKILL after 15 s; resolves once the child has exited. */
export async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx; fails after `timeoutMs` (e.g. the server crashed on start). */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms (last: ${last})`);
}

/** Peak resident set size (VmHWM) of a process, in MB. */
export async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * Resets the peak RSS of `pid` to its current RSS (writing 5 to clear_refs, Linux >= 4.0), so that
 * the VmHWM read after a scenario is that scenario's peak rather than the peak since start.
 * Returns false where this is not allowed; VmHWM is then cumulative.
 */
export async function resetPeakRss(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) a process has used so far, in seconds. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** USER_HZ: 100 on every mainstream Linux architecture (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Share of all CPUs (0..1) in use over `ms`, from /proc/stat. Taken before the bench starts: load
 * from anything else on the machine lowers every figure, and the ceilings and figures are measured
 * minutes apart, so the ratios between them only hold on an otherwise idle machine.
 */
export async function machineBusyShare(ms = 1000): Promise<number> {
  const sample = async () => {
    const cpu = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.split(/\s+/).slice(1).map(Number);
    const idle = cpu[3]! + (cpu[4] ?? 0); // idle + iowait
    return { idle, total: cpu.reduce((a, b) => a + b, 0) };
  };
  const before = await sample();
  await sleep(ms);
  const after = await sample();
  const total = after.total - before.total;
  return total > 0 ? 1 - (after.idle - before.idle) / total : 0;
}

/** The 1, 5 and 15 minute load averages from /proc/loadavg, as `uptime` prints them: how busy the shared machine was. */
export function loadAverage(): string {
  return os.loadavg().map((n) => n.toFixed(2)).join(' / ');
}

/**
 * CPU seconds used so far by each PostgreSQL backend whose application_name is one of `appNames`
 * (read from /proc: PostgreSQL on this machine). Null when none could be read: PostgreSQL on another
 * machine (BENCH_DATABASE_URL), or its backends run as a user whose /proc entries are hidden.
 */
export async function backendCpu(db: Pick<Db, 'query'>, appNames: string[]): Promise<Map<number, number> | null> {
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1::text[])', [appNames]);
  const out = new Map<number, number>();
  // One that is unreadable here has just closed.
  await Promise.all(rows.map(({ pid }) => cpuSeconds(pid).then((seconds) => out.set(pid, seconds), () => {})));
  return rows.length > 0 && out.size === 0 ? null : out;
}

/** CPU seconds the backends in `after` used since `before` (a backend opened in between counts from zero). */
export function backendCpuUsed(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let used = 0;
  for (const [pid, seconds] of after) used += seconds - (before.get(pid) ?? 0);
  return used;
}

export interface LoopWatch {
  /** Per process: % of the windows its main thread was saturated; undefined where none was read. */
  stop(): (number | undefined)[];
}

/** A window of the busy sampler. */
const LOOP_WINDOW_MS = 50;

/**
 * CPU time of a process's main thread (its event loop) so far, in seconds: the first field of
 * /proc/<pid>/task/<pid>/schedstat, in nanoseconds (its stat's ticks of 10 ms would put a window of
 * 50 ms anywhere between 40 and 60 ms for a thread busy throughout).
 */
async function mainThreadCpuSeconds(pid: number): Promise<number> {
  const schedstat = await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8');
  return Number(schedstat.split(' ')[0]) / 1e9;
}

/**
 * Samples each process's main thread (mainThreadCpuSeconds) every LOOP_WINDOW_MS until
 * stopped: per process, the share of windows in which it was on the CPU at least 90% of the window.
 * A process whose average CPU leaves room can still have its event loop full in bursts, and then
 * everything it serves waits behind its own work.
 */
export function watchEventLoops(pids: number[]): LoopWatch {
  const last: (number | undefined)[] = pids.map(() => undefined);
  const windows = pids.map(() => 0);
  const full = pids.map(() => 0);
  let lastAt = 0;
  let reading = false;
  const read = async () => {
    if (reading) return; // a late read is a longer window: skip rather than pile up
    reading = true;
    try {
      const now = await Promise.all(pids.map((pid) => mainThreadCpuSeconds(pid).catch(() => undefined)));
      // This process's own delays lengthen a window: judged against the time it really lasted.
      const at = performance.now();
      const windowSec = (at - lastAt) / 1000;
      lastAt = at;
      now.forEach((seconds, i) => {
        if (seconds !== undefined && last[i] !== undefined) {
          windows[i]! += 1;
          if (seconds - last[i]! >= 0.9 * windowSec) full[i]! += 1;
        }
        last[i] = seconds;
      });
    } finally {
      reading = false;
    }
  };
  const timer = setInterval(() => void read(), LOOP_WINDOW_MS);
  void read();
  return {
    stop() {
      clearInterval(timer);
      return windows.map((n, i) => (n ? (full[i]! / n) * 100 : undefined));
    },
  };
}
