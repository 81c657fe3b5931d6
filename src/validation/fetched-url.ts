// "A URL that Crier or a network will fetch" (media, covers, thumbnails, article cards), judged when the
// post is created by the same rules the guarded client applies when it connects (security/ssrf.ts):
// https, no credentials, and a host that is not a literal private, loopback, link-local or metadata
// address, however it is spelt (WHATWG URL reads http://2130706433/ and [::ffff:127.0.0.1] as the
// loopback they are). A host name is judged at fetch time, when it is resolved. Crier's own media URLs
// are read from storage, never fetched, so nothing about their address matters.
import { parseGuardedUrl, SsrfError } from '../security/ssrf.ts';

/** What depends on the installation; passed to validateSchema, which hands it to the keyword. */
export interface FetchPolicy {
  /** The test switch CRIER_ALLOW_LOOPBACK_FETCH: loopback literals pass, as the guarded client lets them through. */
  allowLoopback: boolean;
  /** True for a URL of this installation's own media (under PUBLIC_BASE_URL). */
  isOwnMedia(url: string): boolean;
}

/** Production's rules with nothing of the installation known: no loopback, no own media. */
export const STRICT_FETCH_POLICY: FetchPolicy = { allowLoopback: false, isOwnMedia: () => false };

/** The schema keyword that marks such a URL (an OpenAPI `x-` extension, so the document stays valid). */
export const FETCHED_URL_KEYWORD = 'x-fetched-url';

/** Why `url` may not be fetched, or undefined when it may. */
export function fetchedUrlProblem(url: string, policy: FetchPolicy): string | undefined {
  if (policy.isOwnMedia(url)) return undefined;
  try {
    parseGuardedUrl(url, policy.allowLoopback);
    return undefined;
  } catch (error) {
    if (error instanceof SsrfError && error.code === 'not_https') return 'must be an https URL, or the url of media uploaded to this Crier';
    if (error instanceof SsrfError) return `must be a public https URL; ${error.message}`;
    throw error;
  }
}
