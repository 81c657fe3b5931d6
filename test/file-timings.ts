// Loaded first by every test file's process (test/run.ts sets NODE_OPTIONS=--import=<this file>): at
// exit, the file's wall time (from its process's start) and the CPU it cost (its own process and the
// processes it started and waited for: ffmpeg, a spawned Crier; not PostgreSQL's) are appended to
// CRIER_TEST_TIMINGS as a JSON line. Node's reporters give each test's time, never a file's: this says which files set the suite's
// minutes. Any other process (a Crier a test spawns) records nothing.
import { appendFileSync, readFileSync } from 'node:fs';

const report = process.env.CRIER_TEST_TIMINGS;
const file = process.argv[1];
if (report && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    const cpuSeconds = (user + system) / 1e6 + childrenCpuSeconds();
    appendFileSync(report, `${JSON.stringify({ file, seconds: process.uptime(), cpuSeconds })}\n`);
  });
}

/** CPU of the children this process waited for (cutime + cstime of /proc/self/stat, in clock ticks of 1/100 s). */
function childrenCpuSeconds(): number {
  try {
    // Fields after the command's closing parenthesis: state is field 3, cutime and cstime fields 16 and 17.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0; // not Linux: the process's own CPU only
  }
}
