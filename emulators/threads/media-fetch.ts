// Threads downloads the media a container names (image_url, video_url) itself. The emulator does too:
// a URL it cannot fetch, or whose bytes are not an image or a video it takes, fails as Threads does
// (an image at container creation, a video as the container's ERROR status). It downloads as
// shared/media-fetch.ts says: its own fetch trusting the certificate authorities a test hands it, or
// the one it was given.
import { bodyChunks, withMediaResponse, type MediaFetchOptions } from '../shared/media-fetch.ts';
import { sniff } from '../shared/sniff.ts';

/** Meta's limits (posts doc, media specifications): images 8 MB, video 1 GB. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 1024 * 1024 * 1024;

export type Fetched = { ok: true; mime: string; bytes: number } | { ok: false; why: string };

export async function downloadMedia(url: string, via: MediaFetchOptions, maxBytes: number): Promise<Fetched> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, why: 'not a URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, why: 'not an http(s) URL' };
  try {
    return await withMediaResponse(url, via, async (res): Promise<Fetched> => {
      if (!res.ok || !res.body) return { ok: false, why: `HTTP ${res.status}` };
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of bodyChunks(res)) {
        size += chunk.length;
        if (size > maxBytes) return { ok: false, why: `larger than ${maxBytes} bytes` };
        if (chunks.length < 4) chunks.push(Buffer.from(chunk));
      }
      const sniffed = sniff(Buffer.concat(chunks));
      return sniffed ? { ok: true, mime: sniffed.mime, bytes: size } : { ok: false, why: 'unrecognised bytes' };
    });
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}
