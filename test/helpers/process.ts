// Running the real `crier` command as a child process, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const CRIER_BIN = path.resolve(import.meta.dirname, '../../bin/crier.js');

export interface Completed {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `crier <args>` to completion. */
export function runCrier(args: string[], env: Record<string, string | undefined>): Promise<Completed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CRIER_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves when `pattern` appears in stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

/** Starts a long-running `crier <args>`. */
export function startCrierProcess(args: string[], env: Record<string, string | undefined>): Started {
  const child = spawn(process.execPath, [CRIER_BIN, ...args], { env: { ...process.env, ...env } });
  let output = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = output.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      const match = output.match(pattern);
      if (match) return Promise.resolve(match);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`)), timeoutMs);
        waiters.push({ pattern, resolve: (m) => { clearTimeout(timer); resolve(m); } });
        void exited.then((code) => reject(new Error(`crier exited (${code}) before ${pattern}; output:\n${output}`)));
      });
    },
  };
}

/**
 * `crier worker` child processes for one test file: each started one is running when `start`
 * resolves, and `killAll` (the file's `after`) ends them with SIGKILL, whatever state they are in.
 */
export function workerProcesses(env: () => Record<string, string | undefined>) {
  const children: Started[] = [];
  return {
    async start(): Promise<Started> {
      const child = startCrierProcess(['worker'], env());
      children.push(child);
      await child.waitFor(/Crier is running/);
      return child;
    },
    killAll(): void {
      for (const child of children) child.child.kill('SIGKILL');
    },
  };
}
