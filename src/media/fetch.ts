// Downloading a post's media at publish time (spec: fetched when publishing, not when creating).
// Anything from outside goes through the SSRF guard, with its size and time caps. Media that Crier
// itself serves (uploaded and confirmed here, or a rendition) is read from storage instead: it is not
// a user-supplied address, and on a local install its URL is http://localhost, which the guard
// rightly refuses.
import { Readable } from 'node:stream';
import { PublishError } from '../networks/errors.ts';
import { isTransientSsrf, SsrfError, type GuardedClient } from '../security/ssrf.ts';
import type { MediaFetcher, MediaOpener, MediaSource } from '../networks/types.ts';
import { tokenOfPublicUrl, type MediaContext } from './context.ts';
import { findServedFile } from './library.ts';

/** Media as a whole Buffer (images, and the adapters that upload in one request). */
export function createMediaFetcher(client: GuardedClient, own?: MediaContext): MediaFetcher {
  const open = createMediaOpener(client, own);
  return async (url) => {
    const source = await open(url);
    return { bytes: await source.bytes(), contentType: source.contentType };
  };
}

export function createMediaOpener(client: GuardedClient, own?: MediaContext): MediaOpener {
  return async (url) => {
    const token = own && tokenOfPublicUrl(own.publicBaseUrl, url);
    if (own && token) return openOwnMedia(own, token, url);
    let res;
    try {
      res = await client.fetch(url);
    } catch (error) {
      if (error instanceof SsrfError && isTransientSsrf(error)) {
        throw new PublishError('retryable', `media ${url} could not be downloaded (${error.message})`);
      }
      throw new PublishError('permanent', `media ${url} was refused: ${(error as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429) throw new PublishError('retryable', `media ${url} answered HTTP ${res.status}`);
    if (res.status !== 200) throw new PublishError('permanent', `media ${url} answered HTTP ${res.status}; media URLs must be publicly reachable`);
    const contentType = res.headers.get('content-type');
    if (!contentType) throw new PublishError('permanent', `media ${url} has no Content-Type header`);
    return bufferSource(res.body, contentType);
  };
}

/** Crier's own file, read from storage range by range. */
async function openOwnMedia(ctx: MediaContext, token: string, url: string): Promise<MediaSource> {
  const filename = decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));
  const file = await findServedFile(ctx, token, filename);
  if (!file) throw new PublishError('permanent', `media ${url} is not (or no longer) available in this Crier's media library`);
  const read = (range?: { start: number; end: number }) => ctx.storage.read(file.storageKey, range);
  return {
    size: file.size,
    contentType: mediaType(file.contentType),
    read,
    async bytes() {
      const chunks: Buffer[] = [];
      for await (const chunk of read()) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  };
}

function bufferSource(bytes: Buffer, contentType: string): MediaSource {
  return {
    size: bytes.length,
    contentType: mediaType(contentType),
    read: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
    bytes: async () => bytes,
  };
}

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
