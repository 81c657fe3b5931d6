// Preloaded (`node --import`) into the processes bench/footprint.ts measures. On SIGUSR2 it writes the
// process's memory as V8 sees it to FOOTPRINT_PROBE_FILE (the bench reads RSS itself from /proc): the
// V8 heap, and the physical size of its young generation (new space), which a start-up's allocations
// grow and V8 keeps, whatever is live in it.
import { renameSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';

process.on('SIGUSR2', () => {
  const memory = process.memoryUsage();
  const physical = (name: string) => v8.getHeapSpaceStatistics().find((space) => space.space_name === name)?.physical_space_size ?? 0;
  const report = { heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, external: memory.external, newSpace: physical('new_space'), oldSpace: physical('old_space') };
  // Written whole, then renamed: the bench never reads half a report.
  const file = process.env.FOOTPRINT_PROBE_FILE!;
  writeFileSync(`${file}.tmp`, JSON.stringify(report));
  renameSync(`${file}.tmp`, file);
});
