// Loaded first by every test file's process (test/run.ts sets NODE_OPTIONS=--import=<this file>): at
// exit, the file's wall time (from its process's start) and the CPU its own process spent (not the
// processes it started, nor PostgreSQL's) are appended to CRIER_TEST_TIMINGS as a JSON line. Node's reporters give each test's time, never a file's: this says which files set the suite's
// minutes. Any other process (a Crier a test spawns) records nothing.
import { appendFileSync } from 'node:fs';

const report = process.env.CRIER_TEST_TIMINGS;
const file = process.argv[1];
if (report && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    appendFileSync(report, `${JSON.stringify({ file, seconds: process.uptime(), cpuSeconds: (user + system) / 1e6 })}\n`);
  });
}
