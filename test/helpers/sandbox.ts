// `crier start --sandbox` as a newcomer runs it: a real process, its guide read from its output, and
// the API called with the key it printed.
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/db/embedded.ts';
import { startCrierProcess } from './process.ts';

export interface SandboxRun {
  crier: ReturnType<typeof startCrierProcess>;
  key: string;
  /** The accounts the guide lists, in its order. */
  accounts: { network: string; username: string; id: string }[];
  /** The port it listens on (env.PORT, or the one chosen instead when that was taken). */
  port: string;
}

/**
 * Starts the sandbox (stopped when the test ends) and reads the key and accounts its guide prints.
 * A port chosen free by the test can be taken by a parallel test file before Crier listens on it:
 * then Crier says so and exits, and the run is tried again on another free port, written back to
 * `env.PORT` (and to `env.PUBLIC_BASE_URL` when that named the old port).
 */
export async function runSandbox(t: { after(fn: () => unknown): void }, env: Record<string, string | undefined>): Promise<SandboxRun> {
  for (let attempt = 1; ; attempt++) {
    const crier = startCrierProcess(['start', '--sandbox'], env);
    let stopping = false;
    let ready = false;
    t.after(async () => { stopping = true; crier.child.kill('SIGTERM'); await crier.exited; });
    // A sandbox that dies under a test shows as refused connections: say why it died (unless the test killed it).
    void crier.exited.then((code) => {
      if (ready && !stopping && !crier.child.killed) process.stderr.write(`crier start --sandbox exited (${code}) while a test used it; its output ended with:\n${crier.output().slice(-4000)}\n`);
    });
    try {
      const run = await readGuide(crier, env);
      ready = true;
      return run;
    } catch (error) {
      if (attempt === 3 || !/Port \d+ is already in use/.test(crier.output())) throw error;
      const taken = env.PORT!;
      env.PORT = String(await freePort());
      if (env.PUBLIC_BASE_URL) env.PUBLIC_BASE_URL = env.PUBLIC_BASE_URL.replace(`:${taken}`, `:${env.PORT}`);
    }
  }
}

async function readGuide(crier: ReturnType<typeof startCrierProcess>, env: Record<string, string | undefined>): Promise<SandboxRun> {
  const [, key] = await crier.waitFor(/API key for this sandbox run: (crier_\S+)/);
  await crier.waitFor(/Connect an account/);
  const accounts = [...crier.output().matchAll(/^ {2}([a-z_]+)\s+@(\S+)\s+account id (\S+)$/gm)].map((m) => ({ network: m[1]!, username: m[2]!, id: m[3]! }));
  return { crier, key: key!, accounts, port: env.PORT! };
}

/** The API of the sandbox listening on `port` (or on the port an env names when called), with a key: status and parsed body. */
export function sandboxApi(port: string | undefined | { PORT?: string }) {
  return (pathname: string, key: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${typeof port === 'object' ? port.PORT : port}${pathname}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } })
      .then(async (r) => ({ status: r.status, body: await r.json() as any }));
}

/** GET /v1/posts/:id until no destination is pending or publishing (about `seconds`), then the post. */
export async function waitForSettledPost(api: ReturnType<typeof sandboxApi>, key: string, id: string, seconds = 10): Promise<any> {
  let post: any;
  for (let i = 0; i < seconds * 10; i++) {
    post = (await api(`/v1/posts/${id}`, key)).body.post;
    if (post.socialAccounts.every((a: any) => a.status !== 'pending' && a.status !== 'publishing')) return post;
    await sleep(100);
  }
  return post;
}

/**
 * Every call the emulator serving `network` answered, from its own record (GET /__emulator/calls),
 * found at the address the sandbox's guide prints for it.
 */
export async function emulatorCalls(run: SandboxRun, network: string): Promise<any[]> {
  const url = run.crier.output().match(new RegExp(`curl -s (\\S+/__emulator/calls) +# [^\\n]*\\b${network}\\b`))?.[1];
  if (!url) throw new Error(`the sandbox guide names no emulator of ${network}`);
  return (await (await fetch(url)).json()).calls;
}
