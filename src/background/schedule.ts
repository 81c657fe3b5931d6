// Maintenance that every worker process runs on a timer (expired records, media, token refresh): at
// start and then every interval, never two passes of one task at once in a process (a slow pass is
// not overlapped by the next), a failed pass logged and tried again at the next tick, and a stop that
// waits for the pass in flight, so nothing writes after the pool has closed. Passes of several
// processes share the work through their statements (SKIP LOCKED, idempotent deletes).
import type { Logger } from 'pino';

export interface Scheduled {
  stop(): Promise<void>;
}

export function every(intervalMs: number, label: string, pass: () => Promise<unknown>, logger: Logger): Scheduled {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = pass()
      .then(() => undefined)
      .catch((error: unknown) => logger.warn({ err: error }, `${label} failed`))
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
