// PULL_FROM_URL videos: TikTok downloads the video from `video_url` itself ("Send the video to TikTok
// servers (not needed if transfer method is PULL_FROM_URL)", upload-video reference). So does the
// emulator, through shared/media-fetch.ts (its own fetch trusting the test's certificate authorities,
// or the guarded one the sandbox hands it). The bytes are hashed as they stream: only their count,
// SHA-256 and sniffed type are kept, never the video. A URL it cannot download ends the publish FAILED
// `video_pull_failed`; bytes that are not a video end it FAILED `file_format_check_failed` (fail
// reasons of the get-video-status reference).
import { createHash } from 'node:crypto';
import { bodyChunks, withMediaResponse } from '../shared/media-fetch.ts';
import { sniff } from '../shared/sniff.ts';
import type { Publish, Publishing, VideoPull } from './publishing.ts';

/** WebM's EBML header (shared/sniff.ts knows MP4 and QuickTime). */
const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

export async function pullVideo(publishing: Publishing, publish: Publish): Promise<void> {
  const pull = publish.pulledVideo!;
  const via = { ca: publishing.trustedCa, ...(publishing.fetchMedia ? { fetchMedia: publishing.fetchMedia } : {}) };
  try {
    await withMediaResponse(pull.url, via, (res) => download(res, pull));
  } catch (error) {
    fail(pull, 'video_pull_failed', (error as Error).message);
  }
  if (pull.state === 'downloading') pull.state = 'done';
  // Downloaded in full (or given up): TikTok's processing begins, or the publish ends FAILED.
  publishing.ready(publish, pull.failReason);
}

/** Reads the response into `pull`: bytes counted and hashed, the first ones sniffed for a video. */
async function download(res: Response, pull: VideoPull): Promise<void> {
  if (!res.ok || !res.body) return fail(pull, 'video_pull_failed', `HTTP ${res.status}`);
  const hash = createHash('sha256');
  let head = Buffer.alloc(0);
  for await (const chunk of bodyChunks(res)) {
    pull.bytes += chunk.length;
    hash.update(chunk);
    if (head.length < 64) head = Buffer.concat([head, Buffer.from(chunk).subarray(0, 64 - head.length)]);
  }
  pull.sha256 = hash.digest('hex');
  const mime = head.subarray(0, 4).equals(EBML) ? 'video/webm' : sniff(head)?.mime;
  if (mime) pull.mime = mime;
  if (!mime?.startsWith('video/')) fail(pull, 'file_format_check_failed', `not a video (${mime ?? 'unrecognised bytes'})`);
}

function fail(pull: VideoPull, reason: NonNullable<VideoPull['failReason']>, why: string): void {
  pull.state = 'failed';
  pull.failReason = reason;
  pull.why = why;
}
