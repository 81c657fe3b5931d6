// A real Bluesky PDS for tests: spawns pds-harness.mjs (the reference @atproto/pds plus an in-memory
// PLC, offline on localhost) as a child process and talks to it with plain fetch over XRPC.
// The harness has its own dependencies: `npm ci --prefix test/peers/bluesky` (see ../README.md).
//
//   const pds = await startPds();            // about 2–3 s
//   const alice = await pds.createAccount('alice.test', 'alice-pass');
//   ...                                      // point the adapter at pds.url
//   await pds.stop();
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const harness = path.join(here, 'pds-harness.mjs');
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const STDERR_KEEP = 16_000;

export const INSTALL_HINT =
  'The Bluesky PDS harness is not installed. From the repo root run: npm ci --prefix test/peers/bluesky ' +
  '(Node >= 22; about 2 minutes, it compiles better-sqlite3).';

/** True when the harness's dependencies are installed (`npm ci --prefix test/peers/bluesky`). */
export function pdsInstalled(): boolean {
  const nm = path.join(here, 'node_modules');
  return (
    existsSync(path.join(nm, '@atproto', 'pds', 'package.json')) &&
    existsSync(path.join(nm, '@atproto', 'crypto', 'package.json')) &&
    existsSync(path.join(nm, '@did-plc', 'server', 'package.json')) &&
    existsSync(path.join(nm, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))
  );
}

export interface PdsAccount {
  did: string;
  handle: string;
}

export interface RunningPds {
  /** Base URL, e.g. http://localhost:41234 (XRPC lives under /xrpc/). */
  url: string;
  /** Process id of the harness (for checks that it is gone after stop()). */
  pid: number;
  /** Creates an account; the handle must end in ".test". */
  createAccount(handle: string, password: string): Promise<PdsAccount>;
  /** Logs in with the account password and creates an app password; returns it. */
  createAppPassword(handle: string, password: string, name: string): Promise<string>;
  /** com.atproto.repo.getRecord for an at:// URI: `{ uri, cid, value }`. */
  getRecord(uri: string): Promise<any>;
  /** Every record of a collection (follows the cursor): `[{ uri, cid, value }, ...]`. */
  listRecords(did: string, collection: string): Promise<any[]>;
  /** com.atproto.sync.getBlob: the stored bytes and their content type. */
  getBlob(did: string, cid: string): Promise<{ bytes: Buffer; contentType: string }>;
  /** SIGTERM; resolves once the harness has exited (it removes its data dir first). */
  stop(): Promise<void>;
}

/** An XRPC call that did not return 2xx. `error` is the XRPC error name (e.g. "InvalidRequest"). */
export class XrpcError extends Error {
  status: number;
  error: string | undefined;
  body: unknown;
  constructor(nsid: string, status: number, body: unknown) {
    const b = (body ?? {}) as { error?: string; message?: string };
    super(`${nsid}: HTTP ${status}${b.error ? ` ${b.error}` : ''}${b.message ? `: ${b.message}` : ''}`);
    this.name = 'XrpcError';
    this.status = status;
    this.error = b.error;
    this.body = body;
  }
}

function checkHandle(handle: string): void {
  if (!/^[a-z0-9-]+\.test$/i.test(handle)) {
    throw new Error(`PDS handle must be a single label ending in ".test" (got "${handle}")`);
  }
}

/** Splits at://<did>/<collection>/<rkey>. */
function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/?#]+)$/.exec(uri);
  if (!m) throw new Error(`not an at:// record URI: ${uri}`);
  return { repo: m[1]!, collection: m[2]!, rkey: m[3]! };
}

/** Spawns the harness and resolves once it has printed its ready line. */
export async function startPds(opts: { rateLimits?: boolean } = {}): Promise<RunningPds> {
  if (!pdsInstalled()) throw new Error(INSTALL_HINT);

  const child = spawn('node', [harness], {
    cwd: here,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PDS_RATE_LIMITS: opts.rateLimits ? '1' : (process.env.PDS_RATE_LIMITS ?? '') },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEEP);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close', not 'exit': by then stderr has been read to the end.
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  // If the test process exits without stop(), still ask the harness to clean up after itself.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);

  let url: string;
  try {
    url = await waitForReady(child, exited, () => stderr);
  } catch (err) {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // lets it remove its data dir; SIGKILL if it does not go
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    throw err;
  }

  async function xrpc(
    nsid: string,
    init: { query?: Record<string, string>; body?: unknown; token?: string } = {},
  ): Promise<Response> {
    const u = new URL(`/xrpc/${nsid}`, url);
    for (const [k, v] of Object.entries(init.query ?? {})) u.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(u, {
      method: init.body !== undefined ? 'POST' : 'GET',
      headers,
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    if (!res.ok) {
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      throw new XrpcError(nsid, res.status, body);
    }
    return res;
  }
  const json = async (nsid: string, init?: Parameters<typeof xrpc>[1]): Promise<any> =>
    (await xrpc(nsid, init)).json();

  let stopping: Promise<void> | undefined;

  return {
    url,
    pid: child.pid!,

    async createAccount(handle, password) {
      checkHandle(handle);
      const local = handle.slice(0, -'.test'.length);
      const out = await json('com.atproto.server.createAccount', {
        body: { handle, password, email: `${local}@example.com` },
      });
      return { did: out.did, handle: out.handle };
    },

    async createAppPassword(handle, password, name) {
      checkHandle(handle);
      const session = await json('com.atproto.server.createSession', { body: { identifier: handle, password } });
      const out = await json('com.atproto.server.createAppPassword', { body: { name }, token: session.accessJwt });
      return out.password;
    },

    async getRecord(uri) {
      return json('com.atproto.repo.getRecord', { query: parseAtUri(uri) });
    },

    async listRecords(did, collection) {
      const records: any[] = [];
      let cursor: string | undefined;
      do {
        const query: Record<string, string> = { repo: did, collection, limit: '100' };
        if (cursor) query.cursor = cursor;
        const page = await json('com.atproto.repo.listRecords', { query });
        records.push(...page.records);
        cursor = page.records.length ? page.cursor : undefined;
      } while (cursor);
      return records;
    },

    async getBlob(did, cid) {
      const res = await xrpc('com.atproto.sync.getBlob', { query: { did, cid } });
      return {
        bytes: Buffer.from(await res.arrayBuffer()),
        contentType: res.headers.get('content-type') ?? '',
      };
    },

    stop() {
      stopping ??= (async () => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        const { code, signal } = await exited;
        clearTimeout(timer);
        if (code !== 0) {
          throw new Error(`PDS harness exited with ${signal ?? `code ${code}`} on stop\n${stderr}`);
        }
      })();
      return stopping;
    },
  };
}

function waitForReady(
  child: ChildProcess,
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  stderr: () => string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let done = false;
    const finish = (err: Error | undefined, url?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(url!);
    };
    const timer = setTimeout(
      () => finish(new Error(`PDS harness not ready after ${READY_TIMEOUT_MS / 1000} s\n--- stderr ---\n${stderr()}`)),
      READY_TIMEOUT_MS,
    );
    child.once('error', (err) => finish(new Error(`could not spawn the PDS harness with "node": ${err.message}`)));
    void exited.then(({ code, signal }) =>
      finish(new Error(`PDS harness exited (${signal ?? `code ${code}`}) before ready\n--- stderr ---\n${stderr()}`)),
    );
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (done) return; // keep draining stdout after ready
      out += chunk;
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        try {
          const msg = JSON.parse(line) as { ready?: boolean; url?: string };
          if (msg.ready && msg.url) return finish(undefined, msg.url);
        } catch {}
      }
    });
  });
}
