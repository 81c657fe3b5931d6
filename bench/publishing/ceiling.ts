// The network's ceiling: how many posts per second the X emulator itself accepts, measured with a
// plain concurrent loop of POST /2/tweets (undici's request() on a keep-alive Agent, as Crier's X
// client sends it: src/networks/http.ts; a heavier client here would take CPU from the emulator,
// which shares this process, and understate what it can do) at the concurrency
// the workers run with, spread over the same accounts. No database, no queue: what the network side
// of the publishing path costs alone, for Crier's figures to be read against.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { percentile } from '../stats.ts';
import type { XBenchAccount } from './fixture.ts';

export interface EmulatorCeiling {
  tweetsPerSec: number;
  p50_ms: number;
  p99_ms: number;
  tweets: number;
  failures: number;
  /** The first failure's status and body, for the report. */
  firstFailure: string | undefined;
}

export async function measureEmulatorCeiling(
  apiUrl: string,
  accounts: XBenchAccount[],
  options: { concurrency: number; tweets: number; warmup: number; tag: string },
): Promise<EmulatorCeiling> {
  if (options.warmup > 0) await postLoop(apiUrl, accounts, options.concurrency, options.warmup, `${options.tag}-warmup`);
  const started = performance.now();
  const result = await postLoop(apiUrl, accounts, options.concurrency, options.tweets, options.tag);
  const elapsedSec = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(result.latencies).sort();
  return {
    tweetsPerSec: result.latencies.length / elapsedSec,
    p50_ms: percentile(sorted, 0.5),
    p99_ms: percentile(sorted, 0.99),
    tweets: result.latencies.length,
    failures: result.failures,
    firstFailure: result.firstFailure,
  };
}

async function postLoop(apiUrl: string, accounts: XBenchAccount[], concurrency: number, total: number, tag: string) {
  let next = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const latencies: number[] = [];
  const dispatcher = new Agent({ pipelining: 1 });
  const loop = async () => {
    for (let i = next++; i < total; i = next++) {
      const account = accounts[i % accounts.length]!;
      const t0 = performance.now();
      const res = await request(`${apiUrl}/2/tweets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `${tag} ${i}` }),
        dispatcher,
      });
      const body = await res.body.text();
      if (res.statusCode === 201) latencies.push(performance.now() - t0);
      else {
        failures++;
        firstFailure ??= `HTTP ${res.statusCode}: ${body.slice(0, 300)}`;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    await dispatcher.close();
  }
  return { latencies, failures, firstFailure };
}
