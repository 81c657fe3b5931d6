// `crier start --sandbox` as a newcomer runs it: a real process, its guide read from its output, and
// the API called with the key it printed.
import { setTimeout as sleep } from 'node:timers/promises';
import { startCrierProcess } from './process.ts';

export interface SandboxRun {
  crier: ReturnType<typeof startCrierProcess>;
  key: string;
  /** The accounts the guide lists, in its order. */
  accounts: { network: string; username: string; id: string }[];
}

/** Starts the sandbox (stopped when the test ends) and reads the key and accounts its guide prints. */
export async function runSandbox(t: { after(fn: () => unknown): void }, env: Record<string, string | undefined>): Promise<SandboxRun> {
  const crier = startCrierProcess(['start', '--sandbox'], env);
  t.after(async () => { crier.child.kill('SIGTERM'); await crier.exited; });
  const [, key] = await crier.waitFor(/API key for this sandbox run: (crier_\S+)/);
  await crier.waitFor(/Connect an account/);
  const accounts = [...crier.output().matchAll(/^ {2}([a-z_]+)\s+@(\S+)\s+account id (\S+)$/gm)].map((m) => ({ network: m[1]!, username: m[2]!, id: m[3]! }));
  return { crier, key: key!, accounts };
}

/** The API of the sandbox listening on `port`, with a key: status and parsed body. */
export function sandboxApi(port: string | undefined) {
  return (pathname: string, key: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}${pathname}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } })
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
