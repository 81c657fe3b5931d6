// The HTTP side of the client: authentication, JSON, retries (transport.ts), pagination. The typed
// methods per resource are in resources.ts; client.ts puts them together as `Crier`.
import { randomUUID } from 'node:crypto';
import type { operations } from './openapi.ts';
import { send, type FetchLike, type RetryOptions } from './transport.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body an operation takes. */
export type RequestBody<Op extends keyof operations> = Json<operations[Op]['requestBody']>;
/** The JSON of an operation's success answer (200, or 201 where that is its status). */
export type ResponseBody<Op extends keyof operations> = operations[Op]['responses'] extends { 200: infer R } ? Json<R> : operations[Op]['responses'] extends { 201: infer R } ? Json<R> : never;
/** The query parameters of an operation. */
export type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export interface CrierOptions {
  /** Where Crier answers, e.g. `https://crier.example.com`. */
  baseUrl: string;
  apiKey: string;
  /** Another fetch (a proxy agent, a test double of the network); default: the global fetch. */
  fetch?: FetchLike;
  retry?: Partial<RetryOptions>;
}

export type QueryValues = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: QueryValues;
  body?: unknown;
  /** A body sent as it is, not as JSON (a bulk import's CSV file), with its content type. */
  text?: { body: string; contentType: string };
  /** Sent as Idempotency-Key; its presence makes a POST safe to repeat. */
  idempotencyKey?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const DEFAULT_RETRY: RetryOptions = { retries: 3, maxDelayMs: 60_000, backoffMs: 500 };

export class CrierHttp {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #fetch: FetchLike;
  readonly #retry: RetryOptions;

  constructor(options: CrierOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Any call of the API, with the client's authentication, retries and errors. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.text) headers['content-type'] = options.text.contentType;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const idempotent = SAFE_METHODS.has(method) || options.idempotencyKey !== undefined;
    const body = options.text ? options.text.body : options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await send(this.#fetch, { method, url: url.toString(), headers, body, idempotent }, this.#retry);
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Uploads bytes to a signed upload URL (no API key: the URL's signature authorizes it). */
  async uploadBytes(uploadUrl: string, bytes: Uint8Array, contentType = 'application/octet-stream'): Promise<void> {
    const url = new URL(uploadUrl, this.baseUrl).toString();
    await send(this.#fetch, { method: 'PUT', url, headers: { 'content-type': contentType }, body: bytes as BodyInit, idempotent: true }, this.#retry);
  }

  /** Pages of a list operation, fetched as they are read: `for await (const page of ...)`. */
  async *pages<Item>(path: string, query: QueryValues = {}, pageSize = 50): AsyncGenerator<Item[]> {
    let offset = Number(query.offset ?? 0);
    for (;;) {
      const answer = await this.request<{ data: Item[]; limit?: number; pagination?: { limit: number } }>('GET', path, { query: { ...query, limit: pageSize, offset } });
      if (answer.data.length > 0) yield answer.data;
      // A short page is the last one; the limit Crier applied (echoed back) is what "short" means.
      if (answer.data.length < (answer.pagination?.limit ?? answer.limit ?? pageSize)) return;
      offset += answer.data.length;
    }
  }

  /** Every item of a list operation, page after page. */
  async *each<Item>(path: string, query: QueryValues = {}, pageSize = 50): AsyncGenerator<Item> {
    for await (const page of this.pages<Item>(path, query, pageSize)) yield* page;
  }
}

/** A new Idempotency-Key unless the caller brought one. */
export function keyFor(given: string | undefined): string {
  return given ?? randomUUID();
}
