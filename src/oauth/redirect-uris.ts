// Where a client may have the browser sent back with a code: an https URL, or plain http to this
// machine's loopback (a desktop client listening on a local port, RFC 8252 §7.3). Anything else
// could hand the code to someone on the way. A loopback URI matches on any port (the client picks a
// free one each run), everything else must match the registered URI exactly.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
export const MAX_URI_LENGTH = 2000;

/** Why `uri` cannot be a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment (#...)';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'must be an https URL, or http to a loopback address (127.0.0.1, [::1], localhost)';
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
  return a.href === b.href && !presented.includes('#');
}

/** `uri` with `params` added to its query (what it already has is kept). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}
