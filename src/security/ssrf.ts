// The one HTTP client for every URL a user gives us (media to download, webhook endpoints, cover and
// thumbnail URLs). A user-supplied URL is an attacker-chosen request from inside our network, so:
//   - https only, and no credentials in the URL (they would end up in logs and Referer-like places);
//   - the destination address is judged when the socket is opened, not when the URL is saved: the
//     agent's DNS lookup refuses any resolution that includes a blocked address, so a name that
//     rebinds to 127.0.0.1 or 169.254.169.254 between check and connect is still refused;
//   - redirects are followed by hand and every hop is judged again by the same rules;
//   - the body is capped while it streams and the whole exchange has one deadline.
// See docs/design.md §8. Blocked ranges live in ip-ranges.ts.
import dns from 'node:dns';
import { isIP } from 'node:net';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rootCertificates } from 'node:tls';
import type { Agent, buildConnector, Dispatcher } from 'undici';
import { lazy } from '../lazy.ts';
import { classifyAddress } from './ip-ranges.ts';

export interface GuardOptions {
  /** Test switch: lets 127.0.0.0/8 and ::1 through, and nothing else. */
  allowLoopback?: boolean;
  /** An extra trusted CA (added to the public roots), e.g. a test server's self-signed certificate. */
  ca?: string | Buffer;
  /** Largest accepted response body; larger aborts with `too_large`. Default 50 MB. */
  maxBytes?: number;
  /** Deadline for the whole exchange (connect, headers, body, every redirect). Default 30 s. */
  timeoutMs?: number;
  /** Redirects followed. 0 makes any 3xx an error (webhooks). Default 3. */
  maxRedirects?: number;
  /**
   * Crier's own sandbox webhook inbox (src/sandbox/inbox.ts): this exact URL is let through although it
   * is plain http on Crier's own, usually loopback, origin. Only as the URL asked for: a redirect to
   * it, or any other URL of that origin, is judged by the rules above and dialled through the guard.
   */
  ownUrl?: string;
}

export type SsrfErrorCode =
  | 'invalid_url'
  | 'not_https'
  | 'credentials_in_url'
  | 'blocked_address'
  | 'dns_failure'
  | 'too_many_redirects'
  | 'redirect_refused'
  | 'too_large'
  | 'timeout'
  | 'connect_failed';

export class SsrfError extends Error {
  readonly code: SsrfErrorCode;

  constructor(code: SsrfErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SsrfError';
    this.code = code;
  }
}

export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /**
   * Where a 200 answer's body goes instead of memory (a temporary file for a video): written as it
   * arrives, under the same cap and deadline; the response's `body` is then empty.
   */
  sink?: Writable;
  /** This request's own body cap and whole-exchange deadline, instead of the client's. */
  maxBytes?: number;
  timeoutMs?: number;
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The URL that produced this response, after redirects. */
  url: string;
}

export interface GuardedClient {
  fetch(url: string, init?: GuardedRequest): Promise<GuardedResponse>;
  close(): Promise<void>;
}

const DEFAULTS = { maxBytes: 50 * 1024 * 1024, timeoutMs: 30_000, maxRedirects: 3 };
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Sent to the origin the caller chose; a redirect elsewhere must not carry them along.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

// ---------------------------------------------------------------------------------------------
// URL and address rules

/**
 * Parses and judges a URL without touching the network: syntax, scheme, credentials, and the host
 * when it is an IP literal. WHATWG URL has already turned `2130706433`, `0x7f.1`, `0177.0.0.1` and
 * `127.1` into `127.0.0.1`, and IPv6 into its canonical form, so one check sees every spelling.
 */
export function parseGuardedUrl(raw: string, allowLoopback = false, ownUrl?: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SsrfError('invalid_url', 'not a valid absolute URL');
  }
  if (isOwnUrl(url, ownUrl)) return url;
  if (url.protocol !== 'https:') throw new SsrfError('not_https', `only https URLs are allowed (got ${url.protocol})`);
  if (url.username || url.password) throw new SsrfError('credentials_in_url', 'URLs must not contain credentials');
  const literal = unbracket(url.hostname);
  if (isIP(literal)) assertAddressAllowed(literal, allowLoopback);
  return url;
}

function isAddressAllowed(address: string, allowLoopback: boolean): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (allowLoopback && kind === 'loopback');
}

function assertAddressAllowed(address: string, allowLoopback: boolean): void {
  if (isAddressAllowed(address, allowLoopback)) return;
  throw new SsrfError('blocked_address', `address ${address} is not allowed (${classifyAddress(address)})`);
}

function isOwnUrl(url: URL, ownUrl: string | undefined): boolean {
  return ownUrl !== undefined && url.href === new URL(ownUrl).href;
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

/**
 * Validates a URL when it is saved, so the user hears about a bad one immediately. Resolving now is
 * a courtesy, not the protection: the address is judged again at connect time by the client.
 */
export async function checkUrl(url: string, options: Pick<GuardOptions, 'allowLoopback' | 'ownUrl'> = {}): Promise<void> {
  const parsed = parseGuardedUrl(url, options.allowLoopback, options.ownUrl);
  const host = unbracket(parsed.hostname);
  if (isIP(host) || isOwnUrl(parsed, options.ownUrl)) return;
  const addresses = await resolveAll(host);
  for (const { address } of addresses) assertAddressAllowed(address, options.allowLoopback ?? false);
}

async function resolveAll(host: string): Promise<LookupAddress[]> {
  try {
    return await dns.promises.lookup(host, { all: true });
  } catch (error) {
    throw new SsrfError('dns_failure', `could not resolve ${host}`, { cause: error });
  }
}

// ---------------------------------------------------------------------------------------------
// Connect-time enforcement

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A drop-in for dns.lookup that fails when ANY resolved address is blocked. Refusing the whole answer
 * (rather than filtering it) keeps a mixed public/private record from being used to reach inside.
 */
function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(new SsrfError('dns_failure', `could not resolve ${hostname}`, { cause: error }), []);
      const blocked = addresses.find((a) => !isAddressAllowed(a.address, allowLoopback));
      if (blocked) return callback(new SsrfError('blocked_address', `${hostname} resolves to blocked address ${blocked.address} (${classifyAddress(blocked.address)})`), []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Every socket the agent opens goes through here. Names are judged by the lookup above; IP literals
 * never reach a lookup (net connects to them directly), so they are judged here before dialling.
 */
function guardedConnector(undici: Undici, options: GuardOptions): buildConnector.connector {
  const allowLoopback = options.allowLoopback ?? false;
  const connect = undici.buildConnector({
    lookup: guardedLookup(allowLoopback),
    // `ca` replaces Node's trust store, so keep the public roots beside the extra one.
    ...(options.ca ? { ca: [...rootCertificates, options.ca.toString()] } : {}),
    timeout: options.timeoutMs ?? DEFAULTS.timeoutMs,
  });
  return (target, callback) => {
    if (target.protocol !== 'https:') return callback(new SsrfError('not_https', 'only https connections are allowed'), null);
    if (isIP(target.hostname) && !isAddressAllowed(target.hostname, allowLoopback)) {
      return callback(new SsrfError('blocked_address', `address ${target.hostname} is not allowed`), null);
    }
    connect(target, callback);
  };
}

// ---------------------------------------------------------------------------------------------
// The client

type Undici = typeof import('undici');

/** undici loads with the first request (lazy.ts): a process that never fetches a user's URL never needs it. */
const undici = lazy("undici (the HTTP client for users' URLs)", () => import('undici'));

export function createGuardedClient(options: GuardOptions = {}): GuardedClient {
  const settings = { ...DEFAULTS, ...definedOnly(options) };
  let agents: Agents | undefined;
  // Outside the deadline: a client that fails to load is Crier's failure, not the URL's.
  const ready = async () => {
    const loaded = await undici();
    return (agents ??= createAgents(loaded, options, settings));
  };
  return {
    fetch: async (url, init = {}) => {
      const { agentFor } = await ready();
      const own = { ...settings, ...definedOnly({ maxBytes: init.maxBytes, timeoutMs: init.timeoutMs }) };
      return withDeadline(own.timeoutMs, (signal) => followRedirects(agentFor, own, url, init, signal));
    },
    close: async () => {
      await Promise.all([agents?.guarded.close(), agents?.own?.close()]);
    },
  };
}

interface Agents {
  guarded: Agent;
  own: Agent | undefined;
  agentFor(url: URL, redirects: number): Agent;
}

function createAgents(undici: Undici, options: GuardOptions, settings: Settings): Agents {
  const timeouts = { headersTimeout: settings.timeoutMs, bodyTimeout: settings.timeoutMs };
  const guarded = new undici.Agent({ connect: guardedConnector(undici, options), ...timeouts });
  // Crier's own inbox is dialled without the guard (`localhost` may resolve to ::1 and 127.0.0.1
  // while Crier listens on one of them: both are tried), and only as the URL asked for.
  const own = options.ownUrl === undefined ? undefined : new undici.Agent({ connect: { timeout: settings.timeoutMs, autoSelectFamily: true }, ...timeouts });
  return { guarded, own, agentFor: (url, redirects) => (own && redirects === 0 && isOwnUrl(url, options.ownUrl) ? own : guarded) };
}

type Settings = typeof DEFAULTS & GuardOptions;

function definedOnly(options: GuardOptions): Partial<Settings> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** One deadline for the whole exchange; whatever fails after it passed is reported as a timeout. */
async function withDeadline<T>(timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new SsrfError('timeout', `no complete response within ${timeoutMs} ms`)), timeoutMs);
  try {
    return await run(controller.signal);
  } catch (error) {
    throw asSsrfError(error, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function followRedirects(agentFor: (url: URL, redirects: number) => Agent, settings: Settings, raw: string, init: GuardedRequest, signal: AbortSignal): Promise<GuardedResponse> {
  let url = parseGuardedUrl(raw, settings.allowLoopback, settings.ownUrl);
  let request = init;
  for (let redirects = 0; ; redirects++) {
    const response = await send(agentFor(url, redirects), url, request, signal);
    const location = redirectLocation(response, settings.maxRedirects);
    if (location === undefined) return finalResponse(response, url, settings.maxBytes, init.sink);
    await response.body.dump(); // a redirect's body is never used; draining it lets the socket be reused
    if (redirects >= settings.maxRedirects) throw new SsrfError('too_many_redirects', `more than ${settings.maxRedirects} redirects`);
    const next = resolveRedirect(location, url, settings.allowLoopback);
    request = redirectedRequest(request, response.statusCode, url, next);
    url = next;
  }
}

async function finalResponse(response: Dispatcher.ResponseData, url: URL, maxBytes: number, sink: Writable | undefined): Promise<GuardedResponse> {
  const streamed = sink !== undefined && response.statusCode === 200;
  const body = streamed ? await writeCapped(response, maxBytes, sink) : await readCapped(response, maxBytes);
  return { status: response.statusCode, headers: toHeaders(response.headers), body, url: url.href };
}

function send(agent: Agent, url: URL, init: GuardedRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return agent.request({
    origin: url.origin,
    path: url.pathname + url.search,
    method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    signal,
  });
}

/**
 * The Location to follow, or undefined when the response is final. With redirects disabled any 3xx
 * is refused (a webhook receiver that redirects is misconfigured, and its target is never contacted).
 */
function redirectLocation(response: Dispatcher.ResponseData, maxRedirects: number): string | undefined {
  const { statusCode } = response;
  if (maxRedirects === 0 && statusCode >= 300 && statusCode < 400) {
    discard(response);
    throw new SsrfError('redirect_refused', `redirects are not allowed (got ${statusCode})`);
  }
  const location = firstHeader(response.headers.location);
  return REDIRECT_STATUSES.has(statusCode) ? location : undefined;
}

/** A redirect target is a new user-controlled URL: same rules as the first one. */
function resolveRedirect(location: string, from: URL, allowLoopback: boolean | undefined): URL {
  let target: string;
  try {
    target = new URL(location, from).href;
  } catch {
    throw new SsrfError('invalid_url', 'redirect to an invalid URL');
  }
  try {
    return parseGuardedUrl(target, allowLoopback);
  } catch (error) {
    if (error instanceof SsrfError) error.message = `redirect refused: ${error.message}`;
    throw error;
  }
}

/** What browsers do: 303 (and 301/302 after a POST) become a bodiless GET; credentials stay home. */
function redirectedRequest(init: GuardedRequest, status: number, from: URL, to: URL): GuardedRequest {
  const method = (init.method ?? 'GET').toUpperCase();
  const becomesGet = (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
  const dropped = new Set(from.origin === to.origin ? [] : ORIGIN_BOUND_HEADERS);
  if (becomesGet) ['content-type', 'content-length', 'content-encoding'].forEach((h) => dropped.add(h));
  const headers = Object.fromEntries(Object.entries(init.headers ?? {}).filter(([name]) => !dropped.has(name.toLowerCase())));
  return becomesGet ? { method: 'GET', headers } : { ...init, headers };
}

/** Reads the body, refusing early on a declared length over the cap and mid-stream on an actual one. */
async function readCapped(response: Dispatcher.ResponseData, maxBytes: number): Promise<Buffer> {
  const declared = Number(firstHeader(response.headers['content-length']));
  if (declared > maxBytes) {
    discard(response);
    throw new SsrfError('too_large', `response declares ${declared} bytes, over the ${maxBytes} byte limit`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      discard(response);
      throw new SsrfError('too_large', `response body exceeds the ${maxBytes} byte limit`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}

/** Same caps as readCapped, the body written to `sink` as it comes (ended when it is all there). */
async function writeCapped(response: Dispatcher.ResponseData, maxBytes: number, sink: Writable): Promise<Buffer> {
  const declared = Number(firstHeader(response.headers['content-length']));
  if (declared > maxBytes) {
    discard(response);
    throw new SsrfError('too_large', `response declares ${declared} bytes, over the ${maxBytes} byte limit`);
  }
  let total = 0;
  await pipeline(response.body, async function* capped(chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      total += chunk.length;
      if (total > maxBytes) throw new SsrfError('too_large', `response body exceeds the ${maxBytes} byte limit`);
      yield chunk;
    }
  }, sink);
  return Buffer.alloc(0);
}

/** Drops a body we will not read; destroying it emits an abort error that nobody is waiting for. */
function discard(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => {});
  response.body.destroy();
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toHeaders(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}

/** Callers see one error type. Our own errors may arrive wrapped by undici or the socket layer. */
function asSsrfError(error: unknown, signal: AbortSignal): SsrfError {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof SsrfError) return e;
  }
  if (signal.aborted) return signal.reason as SsrfError;
  const code = (error as { code?: string }).code ?? '';
  if (/^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code)) return new SsrfError('timeout', 'the request timed out', { cause: error });
  return new SsrfError('connect_failed', `request failed: ${(error as Error).message ?? String(error)}`, { cause: error });
}

// ---------------------------------------------------------------------------------------------
// The same client as a WHATWG fetch

/** Statuses whose Response must have no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The guarded client behind the standard fetch signature, for libraries that take a fetch of their
 * own (@atproto/api's agent): every rule above applies, bodies are buffered both ways, and a refused
 * address rejects with the SsrfError (as `cause` when the library wraps it).
 */
export function guardedFetch(client: GuardedClient): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await client.fetch(request.url, { method: request.method, headers: Object.fromEntries(request.headers), body });
    const empty = NULL_BODY_STATUSES.has(res.status) || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers: res.headers });
  };
}

/** The SsrfError behind a failure, however a library wrapped it (as `cause`, at any depth). */
export function ssrfCause(error: unknown): SsrfError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof SsrfError) return e;
  }
  return undefined;
}

/** Refusals that may go away by themselves (the host was unreachable or slow); the rest are final. */
export function isTransientSsrf(error: SsrfError): boolean {
  return error.code === 'timeout' || error.code === 'connect_failed' || error.code === 'dns_failure';
}

const userFetches = new Map<boolean, typeof fetch>();

/**
 * The fetch a network call made for a user goes through when its address is one the user chose (a
 * Bluesky PDS): the guard with a 30 s deadline. One per process (per loopback setting), shared by
 * the routes and workers that call networks as an account.
 */
export function userFetchFor(allowLoopback: boolean): typeof fetch {
  let shared = userFetches.get(allowLoopback);
  if (!shared) userFetches.set(allowLoopback, (shared = guardedFetch(createGuardedClient({ allowLoopback, timeoutMs: 30_000 }))));
  return shared;
}
