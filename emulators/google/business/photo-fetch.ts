// Google fetches a post's photo from its sourceUrl itself, while it creates the post: a URL it cannot
// fetch fails the create with PHOTO_FETCH_FAILED, bytes it does not take with PHOTO_UPLOAD_FAILED.
// The emulator fetches too (shared/media-fetch.ts: its own fetch trusting the certificate authorities
// a test hands it, or the one it was given), and judges the bytes by their first ones.
import { bodyChunks, withMediaResponse, type MediaFetchOptions } from '../../shared/media-fetch.ts';
import { sniff } from '../../shared/sniff.ts';
import { ERROR_CODES, type ErrorDetail } from '../validate/local-post.ts';

/** Business Profile help: photos are JPG or PNG, 10 KB to 5 MB (the lower bound is not enforced here). */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);

export interface FetchedPhoto {
  mime: string;
  bytes: number;
}

export async function fetchPhoto(url: string, via: MediaFetchOptions): Promise<FetchedPhoto | ErrorDetail> {
  const fetchFailed = (why: string): ErrorDetail => ({ code: ERROR_CODES.PHOTO_FETCH_FAILED, field: 'media.source_url', message: `Fetching image failed. (${why})`, value: url, fieldIndex: 0 });
  const uploadFailed = (why: string): ErrorDetail => ({ code: ERROR_CODES.PHOTO_UPLOAD_FAILED, field: 'media.source_url', message: `Upload photo from the specified URL failed. (${why})`, value: url, fieldIndex: 0 });
  if (!/^https?:\/\//.test(url)) return fetchFailed('not an http(s) URL');
  try {
    return await withMediaResponse(url, via, async (res): Promise<FetchedPhoto | ErrorDetail> => {
      if (!res.ok || !res.body) return fetchFailed(`HTTP ${res.status}`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of bodyChunks(res)) {
        size += chunk.length;
        if (size > MAX_PHOTO_BYTES) return uploadFailed(`larger than ${MAX_PHOTO_BYTES} bytes`);
        if (chunks.length < 4) chunks.push(Buffer.from(chunk));
      }
      const sniffed = sniff(Buffer.concat(chunks));
      if (!sniffed || !PHOTO_TYPES.has(sniffed.mime)) return uploadFailed(`not a JPG or PNG image (${sniffed?.mime ?? 'unrecognised bytes'})`);
      return { mime: sniffed.mime, bytes: size };
    });
  } catch (error) {
    return fetchFailed((error as Error).message);
  }
}
