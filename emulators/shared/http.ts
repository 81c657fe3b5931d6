// Server plumbing shared by the emulators: a quiet Fastify app that hands every body over as raw
// bytes (each emulator parses and rejects bodies the way its real service does) and records the calls
// it answers (calls.ts), a listener that returns {url, close()}, and small request helpers.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { recordCalls } from './calls.ts';

export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** What a handler answers; `send` writes it. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export function createApp(bodyLimit: number): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  recordCalls(app);
  return app;
}

export async function listen(app: FastifyInstance, opts: ListenOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  // A wildcard bind is reachable on loopback; brackets make an IPv6 literal usable in a URL.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = reachable.includes(':') ? `[${reachable}]` : reachable;
  return { url: `http://${urlHost}:${port}`, close: () => app.close() };
}

export function send(reply: FastifyReply, out: Reply): FastifyReply {
  reply.code(out.status);
  for (const [name, value] of Object.entries(out.headers ?? {})) reply.header(name, value);
  if (out.body === undefined) return reply.send();
  if (Buffer.isBuffer(out.body) || typeof out.body === 'string') return reply.send(out.body);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(out.body));
}

/** The token of an `Authorization: Bearer <token>` header, or null for anything else. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/** The raw request body as bytes (empty when there is none). */
export function rawBody(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

/** Parses a JSON body; `undefined` when it is absent or not valid JSON. */
export function jsonBody(body: unknown): unknown {
  const bytes = rawBody(body);
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Parses a multipart/form-data body with the platform's own parser (undici). */
export async function multipartBody(body: unknown, contentType: string): Promise<FormData | undefined> {
  try {
    return await new Response(new Uint8Array(rawBody(body)), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fastify's parsed query with the first value of each repeated parameter, as strings. */
export function firstValues(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    out[name] = Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
  }
  return out;
}

/** The scheme of an Authorization header, as the emulators' request logs record it. */
export function authScheme(header: string | undefined): 'basic' | 'bearer' | 'none' | 'other' {
  if (!header) return 'none';
  return /^basic /i.test(header) ? 'basic' : /^bearer /i.test(header) ? 'bearer' : 'other';
}
