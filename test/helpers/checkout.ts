// Running a command line exactly as Crier or the README prints it, typed in a shell at the root of a
// checkout: what a newcomer does. `crier` itself is not on the PATH there (nothing installs it
// globally), so a printed command only works if it says how to reach it (`npx crier …`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Completed } from './process.ts';

export const CHECKOUT = path.resolve(import.meta.dirname, '../..');

/** The PATH of a newcomer's shell: this Node first (npx with it), and no folder holding a `crier`. */
function newcomerPath(): string {
  const folders = (process.env.PATH ?? '').split(path.delimiter).filter((folder) => folder && !folder.includes('node_modules/.bin'));
  return [path.dirname(process.execPath), ...folders].join(path.delimiter);
}

/** Runs `commandLine` with /bin/sh in the checkout's root; `env` is added to the test's environment. */
export function runInCheckout(commandLine: string, env: Record<string, string | undefined> = {}): Promise<Completed> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', commandLine], { cwd: CHECKOUT, env: { ...process.env, ...env, PATH: newcomerPath() } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
