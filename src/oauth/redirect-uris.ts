// Where a client may have the browser sent back with a code. Three kinds:
//
// - https: a web client (or a desktop client's claimed https link). Matched exactly.
// - http to this machine's loopback: a desktop client listening on a local port (RFC 8252 §7.3). It
//   matches on any port, since the client picks a free one each run.
// - a private-use scheme (RFC 8252 §7.1), e.g. `cursor://…` or `vscode://…`: the operating system hands
//   the URL to the application that registered the scheme. Matched exactly.
//
// Anything else could hand the code to someone on the way, so it is refused:
// - plain http to another host
// - the schemes a browser runs, shows or reads itself instead of handing to an application:
//   javascript:, data:, vbscript:, blob:, about:, file: and a few others, see BROWSER_SCHEMES
//
// Why private-use schemes are allowed: the MCP authorization specification (2025-06-18 and
// 2025-11-25, "Communication Security") says every redirect URI MUST be either localhost or https.
// Read literally, that refuses the desktop MCP clients that register `cursor://` or `vscode://`
// callbacks. The specification points native applications to RFC 8252, and §7.1 of that RFC defines
// these schemes for exactly this case. The rule protects against a code crossing a network in plain
// text, and a private-use redirect never leaves the device. The official MCP SDK's client metadata
// schema likewise accepts any URL for redirect_uris except javascript:, data: and vbscript:.
//
// The one risk that remains: another application on the device can claim the same scheme (RFC 8252
// §8.1, §8.6). PKCE makes a code it intercepts useless to it. The consent page always asks the user
// (never approves silently) and shows the scheme and host the browser returns to, so the user sees
// which application will receive the answer.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes that the browser runs, shows or reads itself, or that are not a navigation at all: never a way back to a client. */
const BROWSER_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'about:', 'file:', 'filesystem:', 'view-source:', 'ftp:', 'ws:', 'wss:']);
/** A hierarchical URI: `scheme:/path` or `scheme://host/path`. RFC 8252 §7.1's form; leaves out `mailto:x`-style opaque URIs. */
const HIERARCHICAL = /^[a-z][a-z0-9+.-]*:\//i;
export const MAX_URI_LENGTH = 2000;

/** Why `uri` cannot be a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  // URL parsing drops tabs and line breaks and trims spaces, so `java\tscript:` would read as
  // `javascript:`. Such a URI is refused as written; it is never parsed into another one.
  if (/[\u0000-\u0020\u007f-\u009f]/.test(uri)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment (#...)';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? undefined : 'must not be plain http to another host than a loopback address (127.0.0.1, [::1], localhost): use https';
  }
  if (BROWSER_SCHEMES.has(url.protocol)) return `must not use the ${url.protocol} scheme: use https, http to a loopback address, or your application's own scheme`;
  if (!HIERARCHICAL.test(uri)) return `must be hierarchical (${url.protocol}/path or ${url.protocol}//host/path) when it uses the application's own scheme`;
  return undefined;
}

/** Whether `presented` is one of the client's registered redirect URIs. */
export function redirectUriMatches(registered: readonly string[], presented: string): boolean {
  return registered.some((uri) => uri === presented || sameLoopbackExceptPort(uri, presented));
}

function sameLoopbackExceptPort(registered: string, presented: string): boolean {
  let a: URL;
  let b: URL;
  try {
    [a, b] = [new URL(registered), new URL(presented)];
  } catch {
    return false;
  }
  if (a.protocol !== 'http:' || !LOOPBACK_HOSTS.has(a.hostname)) return false;
  a.port = '';
  b.port = '';
  return a.href === b.href && !presented.includes('#') && redirectUriProblem(presented) === undefined;
}

/** Which kind of place the browser returns to: a web site, a program listening on this computer, an application by its scheme. */
export type ReturnKind = 'web' | 'loopback' | 'application';

/**
 * The scheme and host the browser goes to with the answer, as the user should see it before
 * allowing: `https://agent.example`, `http://127.0.0.1:33418`, `cursor://anysphere.cursor-retrieval`,
 * or just `com.example.app:` for a URI without a host. The port is kept: another port may be another program.
 */
export function returnAddress(uri: string): { address: string; kind: ReturnKind } {
  const url = new URL(uri);
  const address = url.host ? `${url.protocol}//${url.host}` : url.protocol;
  if (url.protocol === 'https:') return { address, kind: 'web' };
  if (url.protocol === 'http:') return { address, kind: 'loopback' };
  return { address, kind: 'application' };
}

/** `uri` with `params` added to its query (what it already has is kept). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}
