// A thin wrapper over autocannon: one HTTP load run in, the few numbers the bench reports out.
import autocannon, { type Request } from 'autocannon';
import { performance } from 'node:perf_hooks';
import { cpuSeconds, peakRssMb, resetPeakRss, watchEventLoops } from './proc.ts';
import { percentile } from './stats.ts';

export interface LoadSpec {
  /** Base URL of the server, e.g. http://127.0.0.1:3000 */
  url: string;
  method: 'GET' | 'POST';
  path: string;
  connections: number;
  durationSec: number;
  headers?: Record<string, string>;
  body?: string;
  /** Extra headers computed for every single request (e.g. a unique Idempotency-Key). */
  perRequestHeaders?: () => Record<string, string>;
}

export interface LoadResult {
  /** Completed responses per second over the whole run. */
  rps: number;
  p50_ms: number;
  p99_ms: number;
  responses: number;
  non2xx: number;
  /** Connection errors, timeouts included: requests that got no response at all. */
  errors: number;
  /** Responses per status code, e.g. { "200": 5120 }. */
  statusCodes: Record<string, number>;
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const headers = { ...spec.headers };
  if (spec.body !== undefined) headers['content-type'] ??= 'application/json';
  const request: Request = { method: spec.method, path: spec.path, headers, body: spec.body };
  const extra = spec.perRequestHeaders;
  if (extra) {
    // autocannon rebuilds the raw request before each send when setupRequest is present; the headers
    // object it passes in is a fresh copy, so adding to it does not leak between requests.
    request.setupRequest = (req) => {
      Object.assign(req.headers, extra());
      return req;
    };
  }

  // autocannon's own latency histogram stores whole milliseconds, which flattens everything under
  // ~2 ms (the bare-route ceiling, fast list queries) to 0 or 1. The `response` event carries the
  // exact time, so percentiles are computed from that instead. Like autocannon, only 2xx count.
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: spec.url, connections: spec.connections, duration: spec.durationSec, timeout: 30, requests: [request] },
      (error, result) => {
        if (error) return reject(error);
        const statusCodes: Record<string, number> = {};
        let responses = 0;
        for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
          statusCodes[code] = count;
          responses += count;
        }
        const sorted = Float64Array.from(latencies).sort();
        resolve({
          rps: responses / result.duration,
          p50_ms: percentile(sorted, 0.5),
          p99_ms: percentile(sorted, 0.99),
          responses,
          non2xx: result.non2xx,
          errors: result.errors, // autocannon already counts timeouts among errors
          statusCodes,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
}

export interface Measurement extends LoadResult {
  /** CPU seconds that `otherCpu` (e.g. the API's database backends) counted over the measured run. */
  otherCpuSeconds?: number;
  /** Peak RSS of the server process during the measured run (after the warm-up), in MB. */
  peakRssMb: number;
  /**
   * CPU the server process used during the measured run, in % of one core. Near 100 means its
   * single JavaScript thread is the bottleneck; well below, it is waiting (database, network).
   */
  serverCpuPct: number;
  /** The share of 50 ms windows in which the server's event loop was saturated (proc.ts watchEventLoops); undefined where unread. */
  serverLoopSaturatedPct?: number;
}

let warnedCumulativeRss = false;

/**
 * A warm-up run (results dropped: JIT, connection pools and PostgreSQL caches fill up there), then
 * the measured run, with the server's peak RSS reset in between so it covers the measured run only.
 * `otherCpu`, when given, starts counting other processes' CPU at the start of the measured run and
 * returns what reads the seconds they used since.
 */
export async function measure(serverPid: number, spec: LoadSpec, warmupSec: number, otherCpu?: () => Promise<() => Promise<number>>): Promise<Measurement> {
  if (warmupSec > 0) await runLoad({ ...spec, durationSec: warmupSec });
  if (!(await resetPeakRss(serverPid)) && !warnedCumulativeRss) {
    warnedCumulativeRss = true;
    process.stderr.write('note: cannot reset VmHWM here; peak RSS figures are peaks since the process started\n');
  }
  const cpuBefore = await cpuSeconds(serverPid);
  const otherUsed = await otherCpu?.();
  const t0 = performance.now();
  const loops = watchEventLoops([serverPid]);
  let serverLoopSaturatedPct: number | undefined;
  let result: LoadResult;
  try {
    result = await runLoad(spec);
  } finally {
    serverLoopSaturatedPct = loops.stop()[0];
  }
  const serverCpuPct = ((await cpuSeconds(serverPid)) - cpuBefore) / ((performance.now() - t0) / 1000) * 100;
  const otherCpuSeconds = await otherUsed?.();
  return { ...result, peakRssMb: await peakRssMb(serverPid), serverCpuPct, serverLoopSaturatedPct, otherCpuSeconds };
}
