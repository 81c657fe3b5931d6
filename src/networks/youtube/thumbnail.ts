// The block's thumbnailUrl: downloaded through the SSRF guard (input.openMedia: a temporary file, so
// a 50 MB image is not held twice) and judged BEFORE the video is uploaded — unreachable, over 50 MB
// or not a JPEG/PNG by its first bytes fails the publish (spec) — then sent to thumbnails.set once
// the video is processed. A refusal by YouTube then (the channel may not set custom thumbnails yet;
// its limit is 50 MB since the 2026-09-14 revision, 2 MB before) leaves the video published with its
// automatic thumbnail, and says so.
import { PublishError } from '../../core/errors.ts';
import type { MediaSource, PublishInput } from '../contract.ts';
import type { YoutubeClient } from './client.ts';

export const THUMBNAIL_MAX_BYTES = 50 * 1024 * 1024;
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

/** The thumbnail, opened and checked; throws the permanent failure that names what is wrong. */
export async function checkedThumbnail(input: PublishInput, url: string): Promise<{ source: MediaSource; contentType: 'image/jpeg' | 'image/png' }> {
  let source: MediaSource;
  try {
    source = await input.openMedia(url);
  } catch (error) {
    throw refused(`the thumbnail ${url} could not be downloaded (${(error as Error).message})`);
  }
  if (source.size > THUMBNAIL_MAX_BYTES) throw refused(`the thumbnail ${url} is ${source.size} bytes; YouTube thumbnails are up to ${THUMBNAIL_MAX_BYTES} bytes (50 MB)`);
  const head = await firstBytes(source, 8);
  const contentType = head.subarray(0, 3).equals(JPEG) ? 'image/jpeg' : head.equals(PNG) ? 'image/png' : undefined;
  if (!contentType) throw refused(`the thumbnail ${url} is not a JPEG or PNG image (it was served as ${source.contentType || 'no type'})`);
  return { source, contentType };
}

/**
 * thumbnails.set; undefined when YouTube took it, else the note saying the video keeps its automatic
 * thumbnail. A passing failure (5xx, a rate limit) is thrown: the step is tried again.
 */
export async function setThumbnail(client: YoutubeClient, input: PublishInput, videoId: string, url: string): Promise<string | undefined> {
  let checked: Awaited<ReturnType<typeof checkedThumbnail>>;
  try {
    checked = await checkedThumbnail(input, url);
  } catch (error) {
    return `the video is published with YouTube's automatic thumbnail: ${(error as Error).message.replace(/^youtube: /, '')}`;
  }
  try {
    await client.setThumbnail(videoId, checked.source.read(), checked.source.size, checked.contentType);
    return undefined;
  } catch (error) {
    if (!(error instanceof PublishError) || error.kind === 'retryable' || error.kind === 'auth') throw error;
    return `the video is published with YouTube's automatic thumbnail: YouTube refused the custom one (${error.message.replace(/^youtube: /, '')})`;
  }
}

async function firstBytes(source: MediaSource, count: number): Promise<Buffer> {
  if (source.size === 0) return Buffer.alloc(0);
  const stream = source.read({ start: 0, end: Math.min(count, source.size) - 1 });
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

const refused = (why: string) => new PublishError('permanent', `youtube: ${why}`, undefined, 'media_rejected');
