// The scale-out bench's load generator: several processes (bench/scale/generator.ts), each with its
// own connections, started once per figure and driven over IPC. Each process's CPU is read from
// /proc over every run, so the report shows that no generator came near a core: the figure is
// Crier's, not the load generator's (a single generator process had capped the scale-out figure).
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuSeconds } from '../proc.ts';
import type { GeneratorCommand, GeneratorReply, GeneratorResult, GeneratorRun } from './generator.ts';

export interface LoadRun {
  apis: string[];
  /** Connections in all, spread evenly over the processes. */
  connections: number;
  durationSec: number;
  apiKey: string;
  accounts: string[];
  accountsPerPost: number;
  tag: string;
  keepIds: boolean;
}

export interface LoadOutcome {
  responses: number;
  codes: Record<string, number>;
  firstFailure: string | undefined;
  /** Milliseconds of every 200, ascending. */
  latencies: Float64Array;
  postIds: number[];
  firstSentAt: number;
  lastAnsweredAt: number;
  elapsedSec: number;
  /** Each generator process's CPU over the run, % of one core. */
  generatorCpuPct: number[];
}

export interface Generators {
  count: number;
  pids: number[];
  run(load: LoadRun): Promise<LoadOutcome>;
  stop(): Promise<void>;
}

const SCRIPT = path.join(import.meta.dirname, 'generator.ts');

export async function startGenerators(count: number, log: (line: string) => void): Promise<Generators> {
  const children = Array.from({ length: count }, (_, i) => forkGenerator(i + 1, log));
  const stop = async () => {
    await Promise.all(children.map(async ({ child, exited }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ exit: true } satisfies GeneratorCommand);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }));
  };
  try {
    await Promise.all(children.map((c) => c.next()));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    count,
    pids: children.map((c) => c.child.pid!),
    async run(load) {
      const t0 = performance.now();
      const cpu0 = await Promise.all(children.map((c) => cpuSeconds(c.child.pid!)));
      const results = await Promise.all(children.map((c, g) => {
        c.child.send({ run: shareOf(load, g, count) } satisfies GeneratorCommand);
        return c.next().then((reply) => {
          if ('done' in reply) return reply.done;
          throw new Error(`load generator ${g + 1} failed: ${'failed' in reply ? reply.failed : 'no result'}`);
        });
      }));
      const cpu1 = await Promise.all(children.map((c) => cpuSeconds(c.child.pid!)));
      const wallSec = (performance.now() - t0) / 1000;
      return merge(results, cpu1.map((c, i) => ((c - cpu0[i]!) / wallSec) * 100));
    },
    stop,
  };
}

/** Process g's part of the load: its connections (the remainder goes to the first ones), and which API each uses first. */
function shareOf(load: LoadRun, g: number, count: number): GeneratorRun {
  const connections = Math.floor(load.connections / count) + (g < load.connections % count ? 1 : 0);
  return {
    apis: load.apis, offset: g * Math.ceil(load.connections / count), connections, durationSec: load.durationSec, apiKey: load.apiKey,
    accounts: load.accounts, accountsPerPost: load.accountsPerPost, tag: `${load.tag} g${g + 1}`, keepIds: load.keepIds,
  };
}

function merge(results: GeneratorResult[], generatorCpuPct: number[]): LoadOutcome {
  const codes: Record<string, number> = {};
  for (const r of results) for (const [code, n] of Object.entries(r.codes)) codes[code] = (codes[code] ?? 0) + n;
  const total = results.reduce((a, r) => a + r.latencies.length, 0);
  const latencies = new Float64Array(total);
  let at = 0;
  for (const r of results) {
    latencies.set(r.latencies, at);
    at += r.latencies.length;
  }
  latencies.sort();
  const firstSentAt = Math.min(...results.map((r) => r.firstSentAt));
  const lastAnsweredAt = Math.max(...results.map((r) => r.lastAnsweredAt));
  return {
    responses: results.reduce((a, r) => a + r.responses, 0), codes, firstFailure: results.find((r) => r.firstFailure)?.firstFailure,
    latencies, postIds: results.flatMap((r) => r.postIds), firstSentAt, lastAnsweredAt, elapsedSec: (lastAnsweredAt - firstSentAt) / 1000, generatorCpuPct,
  };
}

/** A forked generator and a way to await its next reply; a crash rejects the awaited reply. */
function forkGenerator(n: number, log: (line: string) => void) {
  const child: ChildProcess = fork(SCRIPT, [], { serialization: 'advanced', stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) log(`[generator${n}] ${line}`);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () => new Promise<GeneratorReply>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`load generator ${n} exited (code ${code})`));
    child.once('exit', onExit);
    child.once('message', (reply: GeneratorReply) => {
      child.off('exit', onExit);
      resolve(reply);
    });
  });
  return { child, exited, next };
}
