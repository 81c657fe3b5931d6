// Resources a benchmark run acquires (servers, databases, child processes), released in reverse order
// whatever happens, including Ctrl-C: a run must not leave a PostgreSQL server or a child behind.
export interface Cleanup {
  label: string;
  run: () => Promise<unknown>;
}

export function createCleanups(log: (line: string) => void): { cleanups: Cleanup[]; cleanUp: () => Promise<void> } {
  const cleanups: Cleanup[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> => {
    cleaning ??= runCleanups(cleanups, log);
    return cleaning;
  };
  const stop = (why: string) => {
    log(`${why}: cleaning up`);
    void cleanUp().then(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop(signal));
  // Piped into a reader that stops early (`| head`): the next write fails with EPIPE, which would
  // otherwise end this process at once and leave its children (a `crier api`, a PostgreSQL) running.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stop('stdout closed');
    else throw error;
  });
  return { cleanups, cleanUp };
}

/** Runs `cleanups` last-in first-out; a failing one is logged and the others still run. */
export async function runCleanups(cleanups: Cleanup[], log: (line: string) => void): Promise<void> {
  for (const { label, run } of cleanups.reverse()) {
    try {
      await run();
    } catch (error) {
      log(`cleanup "${label}" failed: ${(error as Error).message}`);
    }
  }
}

/**
 * The end of every benchmark script: run `main`, release what it acquired whatever happened, print
 * the report, list what broke, and exit non-zero when something did.
 */
export async function runBenchmark(input: {
  main: () => Promise<void>;
  cleanUp: () => Promise<void>;
  report: () => void;
  problems: string[];
  log: (line: string) => void;
  startedMs?: number;
}): Promise<never> {
  const { main, cleanUp, report, problems, log, startedMs } = input;
  try {
    await main();
  } catch (error) {
    problems.push(`bench failed: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await cleanUp();
  }
  report();
  if (problems.length) process.stderr.write(`\nSomething broke:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  if (startedMs !== undefined) log(`wall time ${((performance.now() - startedMs) / 1000).toFixed(1)} s`);
  process.exit(problems.length ? 1 : 0);
}
