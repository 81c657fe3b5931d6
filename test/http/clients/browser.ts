// A browser for rendering a hosted client against a started Crier: happy-dom's document for React,
// and a fetch that does what a browser's CORS does before and after each cross-origin call (the
// preflight, then the Access-Control-Allow-Origin check), so a call a browser would block fails here.
import { Window } from 'happy-dom';

export const APP_ORIGIN = 'https://app.example.com';

/** Node's own fetch, for what is not a browser's call (the test's setup, the network's consent page). */
const nodeFetch = globalThis.fetch;

/** Installs happy-dom's window as the global DOM (what React and Testing Library use). */
export function installDom(url = `${APP_ORIGIN}/`): Window {
  const window = new Window({ url });
  const globals = globalThis as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(window)) {
    if (!(key in globalThis)) globals[key] = (window as unknown as Record<string, unknown>)[key];
  }
  Object.assign(globals, { window, document: window.document, IS_REACT_ACT_ENVIRONMENT: true });
  // Node's own navigator is a getter-only global.
  Object.defineProperty(globalThis, 'navigator', { value: window.navigator, configurable: true });
  return window;
}

export interface BrowserCall {
  method: string;
  url: string;
  status: number;
}

/**
 * A fetch from APP_ORIGIN to Crier. `publicBaseUrl` (where Crier says it is, e.g. the signed upload
 * URL) is served by `serverUrl` (where the test's Crier listens), as a reverse proxy would.
 */
export function browserFetch(serverUrl: string, publicBaseUrl: string, calls: BrowserCall[]): typeof fetch {
  return async (input, init = {}) => {
    const url = String(input).replace(publicBaseUrl, serverUrl);
    if (!/^\/(v1|media-uploads)\//.test(url.slice(serverUrl.length)) || !url.startsWith(serverUrl)) return nodeFetch(input, init);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    if (!isSimple(method, headers)) await preflight(url, method, headers);
    headers.set('origin', APP_ORIGIN);
    const response = await nodeFetch(url, { ...init, method, headers });
    calls.push({ method, url: url.replace(serverUrl, ''), status: response.status });
    if (response.headers.get('access-control-allow-origin') !== APP_ORIGIN) {
      throw new TypeError(`CORS: ${method} ${url} answered without Access-Control-Allow-Origin: ${APP_ORIGIN}`);
    }
    return response;
  };
}

/** The Fetch standard's CORS-safelisted request (no preflight). */
function isSimple(method: string, headers: Headers): boolean {
  if (!['GET', 'HEAD', 'POST'].includes(method)) return false;
  for (const [name, value] of headers) {
    if (name === 'content-type' && ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'].includes(value.split(';')[0]!.trim())) continue;
    if (!['accept', 'accept-language', 'content-language'].includes(name)) return false;
  }
  return true;
}

async function preflight(url: string, method: string, headers: Headers): Promise<void> {
  const requested = [...headers.keys()].sort().join(',');
  const response = await nodeFetch(url, {
    method: 'OPTIONS',
    headers: { origin: APP_ORIGIN, 'access-control-request-method': method, ...(requested ? { 'access-control-request-headers': requested } : {}) },
  });
  const allowedOrigin = response.headers.get('access-control-allow-origin');
  const allowedMethods = (response.headers.get('access-control-allow-methods') ?? '').toUpperCase().split(/\s*,\s*/);
  const allowedHeaders = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
  const missing = [...headers.keys()].filter((h) => !allowedHeaders.includes(h) && !allowedHeaders.includes('*'));
  if (!response.ok || allowedOrigin !== APP_ORIGIN || !allowedMethods.includes(method) || missing.length) {
    throw new TypeError(`CORS preflight of ${method} ${url} refused: ${response.status}, origin ${allowedOrigin}, methods ${allowedMethods}, headers missing ${missing}`);
  }
}
