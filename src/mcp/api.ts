// How the MCP tools reach Crier: through its own HTTP API, so that authentication, org scoping,
// validation and rate limits are the API's own. `crier mcp` (stdio) calls a Crier over the network;
// POST /mcp calls the same app in-process (routes/mcp.ts), with the caller's own API key.

/** One API request, as a tool makes it. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Headers the operation takes (Idempotency-Key). */
  headers?: Record<string, string>;
}

/** The API's answer: its status and its JSON body (or the raw text of a body that is not JSON). */
export interface ApiResponse {
  status: number;
  body: unknown;
}

export type ApiCaller = (request: ApiRequest) => Promise<ApiResponse>;

/** `path?query`, with arrays repeated as the API's query strings take them (`?a=1&a=2`). */
export function urlOf(path: string, query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A caller of the Crier at `baseUrl` with `apiKey` (CRIER_URL, CRIER_API_KEY). */
export function httpCaller(baseUrl: string, apiKey: string): ApiCaller {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, path, query, body, headers: extra }) => {
    const headers: Record<string, string> = { ...extra, authorization: `Bearer ${apiKey}`, 'user-agent': 'crier-mcp' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = base + urlOf(path, query);
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).catch((error: unknown) => {
      throw new Error(`Crier at ${base} (CRIER_URL) could not be reached: ${error instanceof Error ? String(error.cause ?? error.message) : String(error)}`);
    });
    return { status: response.status, body: parseBody(await response.text()) };
  };
}
