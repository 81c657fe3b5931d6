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
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`);
      void cleanUp().then(() => process.exit(130));
    });
  }
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
