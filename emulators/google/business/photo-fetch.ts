// Google fetches a post's photo from its sourceUrl itself, while it creates the post: a URL it cannot
// fetch fails the create with PHOTO_FETCH_FAILED, bytes it does not take with PHOTO_UPLOAD_FAILED.
// The emulator fetches too, trusting the system's certificate authorities plus those a test hands it
// (its local HTTPS hosts), and judges the bytes by their first ones.
import { rootCertificates } from 'node:tls';
import { Agent, fetch } from 'undici';
import { sniff } from '../../shared/sniff.ts';
import { ERROR_CODES, type ErrorDetail } from './validate.ts';

/** Business Profile help: photos are JPG or PNG, 10 KB to 5 MB (the lower bound is not enforced here). */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);

export interface FetchedPhoto {
  mime: string;
  bytes: number;
}

export async function fetchPhoto(url: string, extraCa: string[]): Promise<FetchedPhoto | ErrorDetail> {
  const fetchFailed = (why: string): ErrorDetail => ({ code: ERROR_CODES.PHOTO_FETCH_FAILED, field: 'media.source_url', message: `Fetching image failed. (${why})`, value: url, fieldIndex: 0 });
  const uploadFailed = (why: string): ErrorDetail => ({ code: ERROR_CODES.PHOTO_UPLOAD_FAILED, field: 'media.source_url', message: `Upload photo from the specified URL failed. (${why})`, value: url, fieldIndex: 0 });
  if (!/^https?:\/\//.test(url)) return fetchFailed('not an http(s) URL');
  const dispatcher = new Agent({ connect: { ca: [...rootCertificates, ...extraCa] } });
  try {
    const res = await fetch(url, { dispatcher, signal: AbortSignal.timeout(30_000) });
    if (!res.ok || !res.body) return fetchFailed(`HTTP ${res.status}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > MAX_PHOTO_BYTES) return uploadFailed(`larger than ${MAX_PHOTO_BYTES} bytes`);
      if (chunks.length < 4) chunks.push(Buffer.from(chunk));
    }
    const sniffed = sniff(Buffer.concat(chunks));
    if (!sniffed || !PHOTO_TYPES.has(sniffed.mime)) return uploadFailed(`not a JPG or PNG image (${sniffed?.mime ?? 'unrecognised bytes'})`);
    return { mime: sniffed.mime, bytes: size };
  } catch (error) {
    return fetchFailed((error as Error).message);
  } finally {
    await dispatcher.close();
  }
}
