// A real local HTTPS server for tests of outbound calls (the SSRF guard, webhooks, media downloads).
// Its certificate is self-signed and generated at test time with the openssl CLI, for `localhost`
// and 127.0.0.1; pass `ca` to the client to trust it (or `caFile()` where a path is wanted:
// CRIER_EXTRA_CA_FILE). Everything it receives is recorded in order. It leaves no file behind: the
// certificate is generated in a temporary folder removed at once, the CA file is removed by close().
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** May return anything (so `(req, res) => res.end()` reads naturally); a returned promise is awaited. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => unknown;

export interface TestHttpsServer {
  /** Origin without a trailing slash, e.g. https://127.0.0.1:40123 */
  url: string;
  port: number;
  /** PEM certificate to trust (it is its own CA). */
  ca: string;
  /** `ca` written to a file, for CRIER_EXTRA_CA_FILE: the same path on every call, removed by close(). */
  caFile(): Promise<string>;
  /** Requests received, in arrival order (recorded once their body has been read). */
  requests: ReceivedRequest[];
  /** TCP connections accepted so far: proves that a refused URL was never even dialled. */
  readonly connections: number;
  /** Serves `path` (exact pathname, query ignored) with `handler`; unrouted paths get a 404. */
  route(path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

export interface Certificate {
  key: string;
  cert: string;
}

let certificate: Promise<Certificate> | undefined;

/** One self-signed certificate per test process: generating it costs tens of milliseconds. */
export function selfSignedCertificate(): Promise<Certificate> {
  certificate ??= generateCertificate();
  return certificate;
}

async function generateCertificate(): Promise<Certificate> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-cert-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
      '-keyout', keyFile, '-out', certFile,
    ]);
    return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function startHttpsServer(options: { host?: string } = {}): Promise<TestHttpsServer> {
  const { key, cert } = await selfSignedCertificate();
  const routes = new Map<string, RouteHandler>();
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer({ key, cert }, (req, res) => void handle(routes, requests, req, res));
  server.on('connection', () => connections++);
  const port = await listen(server, options.host ?? '127.0.0.1');
  let caFile: Promise<{ dir: string; file: string }> | undefined;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    ca: cert,
    requests,
    get connections() {
      return connections;
    },
    async caFile() {
      caFile ??= writeCaFile(cert);
      return (await caFile).file;
    },
    route: (p, handler) => void routes.set(p, handler),
    async close() {
      await close(server);
      if (caFile) await removeCaFile(caFile);
    },
  };
}

/** CA folders not removed yet: a test process that ends without closing its server removes them at exit. */
const caDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of caDirs) rmSync(dir, { recursive: true, force: true });
});

async function writeCaFile(cert: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crier-ca-'));
  caDirs.add(dir);
  const file = path.join(dir, 'ca.pem');
  await writeFile(file, cert);
  return { dir, file };
}

async function removeCaFile(caFile: Promise<{ dir: string }>): Promise<void> {
  const { dir } = await caFile;
  await rm(dir, { recursive: true, force: true });
  caDirs.delete(dir);
}

async function handle(routes: Map<string, RouteHandler>, requests: ReceivedRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const target = req.url ?? '/';
  requests.push({ method: req.method ?? 'GET', path: target, headers: req.headers, body });
  const handler = routes.get(new URL(target, 'https://x').pathname);
  try {
    if (handler) await handler(req, res, body);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error));
  }
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Drops open connections too, so a handler that never answers cannot keep the test process alive. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
