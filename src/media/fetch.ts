// Downloading a post's media at publish time (spec: fetched when publishing, not when creating),
// always through the SSRF guard, with the guard's size and time caps.
import { PublishError } from '../publishing/errors.ts';
import { SsrfError, type GuardedClient } from '../security/ssrf.ts';
import type { MediaFetcher } from '../networks/types.ts';

export function createMediaFetcher(client: GuardedClient): MediaFetcher {
  return async (url) => {
    let res;
    try {
      res = await client.fetch(url);
    } catch (error) {
      if (error instanceof SsrfError && (error.code === 'timeout' || error.code === 'connect_failed' || error.code === 'dns_failure')) {
        throw new PublishError('retryable', `media ${url} could not be downloaded (${error.message})`);
      }
      throw new PublishError('permanent', `media ${url} was refused: ${(error as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429) throw new PublishError('retryable', `media ${url} answered HTTP ${res.status}`);
    if (res.status !== 200) throw new PublishError('permanent', `media ${url} answered HTTP ${res.status}; media URLs must be publicly reachable`);
    const contentType = res.headers.get('content-type');
    if (!contentType) throw new PublishError('permanent', `media ${url} has no Content-Type header`);
    return { bytes: res.body, contentType };
  };
}
