// PULL_FROM_URL photos: TikTok downloads each URL itself. So does the emulator (shared/media-fetch.ts:
// its own fetch trusting the certificate authorities a test hands it, or the one it was given). Only
// the byte count and the sniffed type are kept. A URL it cannot fetch ends the publish FAILED
// (photo_pull_failed); bytes that are not JPEG or WebP end it FAILED (file_format_check_failed).
import { bodyChunks, withMediaResponse, type MediaFetchOptions } from '../shared/media-fetch.ts';
import { sniff } from '../shared/sniff.ts';
import type { PhotoPull, Publish, Publishing } from './publishing.ts';

/** TikTok's photo limit: 20 MB each. */
export const MAX_PHOTO_BYTES = 20 * 1024 * 1024;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/webp']);

export async function pullPhotos(publishing: Publishing, publish: Publish, urls: string[]): Promise<void> {
  const via = { ca: publishing.trustedCa, ...(publishing.fetchMedia ? { fetchMedia: publishing.fetchMedia } : {}) };
  publish.photos = [];
  for (const url of urls) publish.photos.push(await pull(url, via));
  const broken = publish.photos.find((p) => !p.ok);
  const unusable = broken ? (broken.mime ? 'file_format_check_failed' : 'photo_pull_failed') : undefined;
  publishing.ready(publish, unusable);
}

async function pull(url: string, via: MediaFetchOptions): Promise<PhotoPull> {
  try {
    return await withMediaResponse(url, via, async (res): Promise<PhotoPull> => {
      if (!res.ok || !res.body) return { url, ok: false, why: `HTTP ${res.status}` };
      const head: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of bodyChunks(res)) {
        bytes += chunk.length;
        if (bytes > MAX_PHOTO_BYTES) return { url, ok: false, why: `larger than ${MAX_PHOTO_BYTES} bytes` };
        if (head.length < 4) head.push(Buffer.from(chunk));
      }
      const mime = sniff(Buffer.concat(head))?.mime;
      if (!mime || !PHOTO_TYPES.has(mime)) return { url, ok: false, bytes, ...(mime ? { mime } : {}), why: `not a JPEG or WebP image (${mime ?? 'unrecognised bytes'})` };
      return { url, ok: true, mime, bytes };
    });
  } catch (error) {
    return { url, ok: false, why: (error as Error).message };
  }
}
