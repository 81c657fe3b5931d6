// Meta downloads ("cURLs") every media URL a container names. The emulator does the same, so a URL
// Crier hands over that nothing can fetch fails here as it would at Meta. It downloads as
// shared/media-fetch.ts says: its own fetch trusting the certificate authorities a test hands it
// (`ca`, which may grow after start), or the fetch it was given.
import { createHash } from 'node:crypto';
import { withMediaResponse, type FetchMedia } from '../shared/media-fetch.ts';
import { sniff } from '../shared/sniff.ts';
import type { FetchedMedia } from './state/instagram.ts';

/** Meta's cap on an image (2207004 beyond) and a Reel (unverified: 300 MB at most is read here). */
const MAX_BYTES = 300 * 1024 * 1024;

export type Downloader = (url: string) => Promise<FetchedMedia | { failed: string }>;

/** The bytes themselves, for a Page photo posted by `url`. */
export type ByteDownloader = (url: string) => Promise<Buffer | undefined>;

export function createDownloader(ca: string[], fetchMedia?: FetchMedia): Downloader {
  const via = { ca, ...(fetchMedia ? { fetchMedia } : {}) };
  return async (url) => {
    if (!/^https?:\/\//i.test(url)) return { failed: 'not an http(s) URL' };
    try {
      return await withMediaResponse(url, via, async (res) => {
        if (res.status !== 200) return { failed: `HTTP ${res.status}` };
        const bytes = Buffer.from(await res.arrayBuffer());
        if (bytes.length > MAX_BYTES) return { failed: 'too large' };
        // Meta judges a file by its bytes, not by the Content-Type it was served with.
        const contentType = sniff(bytes)?.mime ?? (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
        return { url, contentType, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
      });
    } catch (error) {
      return { failed: (error as Error).message };
    }
  };
}

export function createByteDownloader(ca: string[], fetchMedia?: FetchMedia): ByteDownloader {
  const via = { ca, ...(fetchMedia ? { fetchMedia } : {}) };
  return async (url) => {
    try {
      return await withMediaResponse(url, via, async (res) => (res.status === 200 ? Buffer.from(await res.arrayBuffer()) : undefined));
    } catch {
      return undefined;
    }
  };
}
