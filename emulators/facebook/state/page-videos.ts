// Page videos as the emulator keeps them: a feed video (chunked upload on /{page-id}/videos), a Reel
// (/video_reels + rupload) or a video Story (/video_stories + rupload), with its bytes as received
// and its processing on the emulator's clock.
import { createHash } from 'node:crypto';

export type VideoKind = 'video' | 'reel' | 'story';

export interface PageVideo {
  id: string;
  pageId: string;
  kind: VideoKind;
  /** The size announced at start (feed videos) or by rupload's file_size header. */
  declaredSize: number;
  chunks: Buffer[];
  /** Every transfer or rupload call received, with its offset: resends show here. */
  transfers: number[];
  finished: boolean;
  /** Processing ends at this time (set at finish). */
  readyAt?: number;
  failed?: string;
  /** The parameters of the finishing call (title, description, video_state…). */
  params: Record<string, string>;
  /** The post (feed or Story) it became once processed. */
  postId?: string;
  thumbnails: { sha256: string; preferred: boolean }[];
}

export const videoBytes = (video: PageVideo) => Buffer.concat(video.chunks);
export const videoSha256 = (video: PageVideo) => createHash('sha256').update(videoBytes(video)).digest('hex');
