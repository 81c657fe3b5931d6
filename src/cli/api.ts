// The HTTP side of the client commands: where Crier is, its key, and one request with the failures
// a user must tell apart (refused by the API: exit 2; unreachable or failing: exit 3).
import { setTimeout as sleep } from 'node:timers/promises';
import { CRIER_COMMAND, EXIT } from './usage.ts';

/** A failure a client command ends with: its message (one line) and its exit code. */
export class ClientFailure extends Error {
  readonly exitCode: number;
  /** The API's error body when it answered one, printed as is with --json. */
  readonly body: unknown;
  constructor(message: string, exitCode: number, body?: unknown) {
    super(message);
    this.exitCode = exitCode;
    this.body = body;
  }
}

export const usageFailure = (message: string) => new ClientFailure(message, EXIT.usage);

export interface Connection {
  url: string;
  key: string;
}

/** `--url`/`--key` win over CRIER_URL/CRIER_API_KEY; the URL defaults to a local Crier on PORT. */
export function connection(flags: { url?: string; key?: string }, env = process.env): Connection {
  const url = (flags.url ?? env.CRIER_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(url)) throw usageFailure(`--url / CRIER_URL must be an http(s) URL, not "${url}"`);
  const key = flags.key ?? env.CRIER_API_KEY;
  if (!key) throw usageFailure(`no API key: set CRIER_API_KEY or pass --key (${CRIER_COMMAND} key create prints one)`);
  return { url, key };
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** 409 (same Idempotency-Key in progress) and 429 are retried after Retry-After, this many times. */
  retries?: number;
}

/** Calls the API and answers the parsed body of a 2xx; anything else is a ClientFailure. */
export async function request<T = any>(conn: Connection, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
  for (let attempt = 0; ; attempt++) {
    const response = await send(conn, path, options);
    const body = await readBody(response);
    if (response.ok) return { status: response.status, body: body as T };
    const wait = retryDelay(response);
    if (wait !== undefined && attempt < (options.retries ?? 0)) {
      await sleep(wait);
      continue;
    }
    throw failureFor(response.status, body);
  }
}

async function send(conn: Connection, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${conn.key}`, ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(conn.url + path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (error) {
    throw unreachable(conn.url, error);
  }
}

export function unreachable(url: string, error: unknown): ClientFailure {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ClientFailure(`cannot reach Crier at ${url} (${reason}): is it running, and is CRIER_URL right?`, EXIT.unreachable);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/** Milliseconds to wait before retrying a 409 or 429 that says when (capped: a CLI user is waiting). */
function retryDelay(response: Response): number | undefined {
  if (response.status !== 409 && response.status !== 429) return undefined;
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 30) * 1000 : undefined;
}

/** The API's refusal in one line: its error, its code, and each per-field detail. */
export function failureFor(status: number, body: unknown): ClientFailure {
  const error = body as { error?: string; code?: string; details?: unknown } | null;
  const text = typeof body === 'string' ? body.slice(0, 200) : error?.error ?? 'no error message';
  const code = error?.code ? ` [${error.code}]` : '';
  const details = describeDetails(error?.details);
  const exitCode = status >= 500 ? EXIT.unreachable : EXIT.refused;
  return new ClientFailure(`Crier answered ${status}: ${text}${code}${details ? `\n${details}` : ''}`, exitCode, body);
}

function describeDetails(details: unknown): string {
  if (details === undefined || details === null) return '';
  if (typeof details === 'string') return `  ${details}`;
  if (Array.isArray(details)) return details.map((d) => `  ${typeof d === 'string' ? d : detailLine(d)}`).join('\n');
  return Object.entries(details as Record<string, unknown>).map(([field, problem]) => `  ${field}: ${typeof problem === 'string' ? problem : JSON.stringify(problem)}`).join('\n');
}

function detailLine(detail: Record<string, unknown>): string {
  const where = detail.field ?? detail.path ?? detail.instancePath;
  const what = detail.message ?? detail.reason ?? JSON.stringify(detail);
  return where ? `${String(where)}: ${String(what)}` : String(what);
}
