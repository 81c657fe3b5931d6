// The test handle on Page publishing: what was received (calls, photos with their bytes' hash,
// posts, comments, in order) and the switches for Meta's refusals.
import type { Clock } from '../../shared/clock.ts';
import type { PageComment, PagePhoto, PagePost, PagesStore } from './store.ts';
import type { PageVideo } from './videos.ts';

export interface PageControls {
  calls(): { method: string; path: string; params: Record<string, string> }[];
  photos(): PagePhoto[];
  /** Feed posts, oldest first. */
  posts(): PagePost[];
  comments(postId?: string): PageComment[];
  /** Videos (feed, Reels, Stories) with their chunks and every transfer's offset. */
  videos(): PageVideo[];
  /** Video processing time on the emulator's clock (default 1 s). */
  setVideoProcessingMs(ms: number): void;
  /** The next video finished fails processing with this message. */
  failNextVideo(message?: string): void;
  /** The next `times` publishing calls answer #368 (blocked for policy). */
  blockNext(times?: number): void;
  /** Every Page call answers #32 for this long, X-Page-Usage at 100% and the minutes left in BUC. */
  throttle(ms: number): void;
}

export function pageControls(pages: PagesStore, clock: Clock): PageControls {
  return {
    calls: () => [...pages.calls],
    photos: () => [...pages.photos.values()],
    posts: () => [...pages.posts.values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)),
    comments: (postId) => pages.comments.filter((c) => postId === undefined || c.postId === postId),
    videos: () => [...pages.videos.values()],
    setVideoProcessingMs: (ms) => {
      pages.processingMs = ms;
    },
    failNextVideo: (message = 'The video could not be processed') => {
      pages.failNextVideo = message;
    },
    blockNext: (times = 1) => {
      pages.blockNext += times;
    },
    throttle: (ms) => {
      pages.throttledUntil = clock.now() + ms;
    },
  };
}
