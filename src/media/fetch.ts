// Downloading a post's media at publish time (spec: fetched when publishing, not when creating).
// Anything from outside goes through the SSRF guard, with its size and time caps. Media that Crier
// itself serves (uploaded and confirmed here, or a rendition) is read from storage instead: it is not
// a user-supplied address, and on a local install its URL is http://localhost, which the guard
// rightly refuses. A file from outside is streamed to a temporary file as it downloads, then read
// range by range like Crier's own: a video is never held whole in memory. The file is kept a while
// for the next step of a chunked upload (download-cache.ts).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PublishError } from '../core/errors.ts';
import { isTransientSsrf, SsrfError, type GuardedClient } from '../security/ssrf.ts';
import type { MediaFetcher, MediaSource } from '../networks/contract.ts';
import { tokenOfPublicUrl, type MediaContext } from './context.ts';
import { DownloadCache, type Downloaded } from './download-cache.ts';
import { findServedFile } from './library.ts';

/** Media as a whole Buffer (images, and the adapters that upload in one request). */
export function createMediaFetcher(client: GuardedClient, own?: MediaContext, kept = new DownloadCache()): MediaFetcher {
  const open = createMediaOpener(client, own, kept);
  return async (url) => {
    const source = await open(url);
    try {
      return { bytes: await source.bytes(), contentType: source.contentType };
    } finally {
      await source.dispose?.();
    }
  };
}

/** The largest file one destination's network takes, and its name for the message that says so. */
export interface MediaCap {
  maxBytes: number;
  network: string;
}

/** Opens a file for one destination; without a cap, the guard's own applies to downloads. */
export type CappedMediaOpener = (url: string, cap?: MediaCap) => Promise<MediaSource>;

/** A download into a temporary file has this long in all (a stalled one is cut after the guard's idle timeout). */
const FILE_DOWNLOAD_DEADLINE_MS = 30 * 60_000;

export function createMediaOpener(client: GuardedClient, own?: MediaContext, kept = new DownloadCache()): CappedMediaOpener {
  return async (url, cap) => {
    const token = own && tokenOfPublicUrl(own.publicBaseUrl, url);
    const source = own && token ? await openOwnMedia(own, token, url) : await openDownloaded(kept, client, url, cap?.maxBytes);
    if (cap && source.size > cap.maxBytes) {
      await source.dispose?.();
      throw new PublishError('permanent', `media ${url} is ${source.size} bytes; ${cap.network} takes files up to ${cap.maxBytes} bytes`);
    }
    return source;
  };
}

/**
 * A file from outside: downloaded through the guard into a temporary file, or the one kept from the
 * previous step of the same upload (download-cache.ts). `dispose` lets go of it.
 */
async function openDownloaded(kept: DownloadCache, client: GuardedClient, url: string, maxBytes: number | undefined): Promise<MediaSource> {
  // Keyed by the cap too: a download cut at one network's cap must not stand for a network taking more.
  const { downloaded, release } = await kept.acquire(`${maxBytes ?? ''} ${url}`, () => downloadToFile(client, url, maxBytes));
  const { file, size, contentType } = downloaded;
  return {
    size,
    contentType,
    read: (range) => createReadStream(file, range ? { start: range.start, end: range.end } : {}),
    bytes: () => readFile(file),
    dispose: async () => release(),
  };
}

/** Downloads `url` through the guard into a new temporary file. */
async function downloadToFile(client: GuardedClient, url: string, maxBytes: number | undefined): Promise<Downloaded> {
  const file = path.join(os.tmpdir(), `crier-media-${randomBytes(12).toString('hex')}`);
  try {
    const contentType = await download(client, url, file, maxBytes);
    const { size } = await stat(file);
    return { file, size, contentType: mediaType(contentType) };
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}

/** Downloads `url` into `file`; returns its Content-Type, or throws the PublishError saying why not. */
async function download(client: GuardedClient, url: string, file: string, maxBytes: number | undefined): Promise<string> {
  // Written only by a 200 answer (and ended by it); closed here otherwise, so its descriptor is not left open.
  const sink = createWriteStream(file);
  let res;
  try {
    res = await client.fetch(url, { sink, maxBytes, timeoutMs: FILE_DOWNLOAD_DEADLINE_MS });
  } catch (error) {
    sink.destroy();
    if (error instanceof SsrfError && isTransientSsrf(error)) {
      throw new PublishError('retryable', `media ${url} could not be downloaded (${error.message})`);
    }
    throw new PublishError('permanent', `media ${url} was refused: ${(error as Error).message}`);
  }
  if (res.status !== 200) sink.destroy();
  if (res.status >= 500 || res.status === 429) throw new PublishError('retryable', `media ${url} answered HTTP ${res.status}`);
  if (res.status !== 200) throw new PublishError('permanent', `media ${url} answered HTTP ${res.status}; media URLs must be publicly reachable`);
  const contentType = res.headers.get('content-type');
  if (!contentType) throw new PublishError('permanent', `media ${url} has no Content-Type header`);
  return contentType;
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

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
