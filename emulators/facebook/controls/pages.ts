// The test handle on Page publishing: what was received (calls, photos with their bytes' hash,
// posts, comments, in order) and the switches for Meta's refusals.
import type { Clock } from '../../shared/clock.ts';
import type { FacebookStore } from '../state/accounts.ts';
import type { PageComment, PagePhoto, PagePost, PagesStore, PostStats, SmallPageInsights } from '../state/pages.ts';
import type { PageVideo } from '../state/page-videos.ts';

export interface PageControls {
  calls(): { method: string; path: string; params: Record<string, string>; host?: string }[];
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
  /**
   * Whether the app has the "Page Public Metadata Access" feature (default off, as for an app that has
   * not been through App Review for it): off, reading a Page the token does not manage is #10.
   */
  pagePublicMetadataAccess(on: boolean): void;
  /**
   * A comment by someone else (a Page-scoped id and name) on a post, or an answer to comment
   * `objectId` (an answer to an answer goes under the top-level comment, as on Facebook).
   */
  addComment(objectId: string, input: { message: string; fromId?: string; fromName?: string; likeCount?: number }): PageComment;
  /** A post's reactions (by type), shares and insights (views, reach, clicks). */
  setPostStats(postId: string, stats: Partial<PostStats>): void;
  /** The Page node's followers_count and fan_count (its likes: Page insights need 100 or more). */
  setPageCounts(pageId: string, counts: { followers?: number; fans?: number }): void;
  /**
   * How /{page-id}/insights answers a Page under 100 likes: Meta's documented error 2874008 ('error',
   * the default) or the `{"data": []}` third parties report ('empty').
   */
  smallPageInsights(answer: SmallPageInsights): void;
  /** The Page's insights values of one UTC day (YYYY-MM-DD): page_post_engagements, page_media_view… */
  setPageDay(pageId: string, day: string, values: Record<string, number>): void;
}

export function pageControls(pages: PagesStore, clock: Clock, store: FacebookStore): PageControls {
  let people = 0;
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
    pagePublicMetadataAccess: (on) => {
      pages.publicMetadataAccess = on;
    },
    addComment: (objectId, input) => {
      const target = pages.comments.find((c) => c.id === objectId);
      const post = pages.posts.get(target?.postId ?? objectId);
      if (!post) throw new Error(`no post or comment ${objectId}`);
      const parentId = target ? target.parentId ?? target.id : undefined;
      people += 1;
      const comment: PageComment = {
        id: `${post.id.split('_')[1] ?? post.id}_${pages.nextId()}`, postId: post.id,
        fromId: input.fromId ?? String(7_000_000_000_000_000 + people), fromName: input.fromName ?? `Commenter ${people}`,
        message: input.message, createdAt: clock.now(), likeCount: input.likeCount ?? 0, ...(parentId ? { parentId } : {}),
      };
      pages.comments.push(comment);
      return comment;
    },
    setPostStats: (postId, stats) => {
      const current = pages.postStats.get(postId) ?? { reactions: {}, shares: 0, views: 0, reach: 0, clicks: 0 };
      pages.postStats.set(postId, { ...current, ...stats });
    },
    setPageCounts: (pageId, counts) => {
      const page = store.pages.get(pageId);
      if (!page) throw new Error(`no page ${pageId}`);
      if (counts.followers !== undefined) page.followersCount = counts.followers;
      if (counts.fans !== undefined) page.fanCount = counts.fans;
    },
    smallPageInsights: (answer) => {
      pages.smallPageInsights = answer;
    },
    setPageDay: (pageId, day, values) => {
      const days = pages.pageDays.get(pageId) ?? new Map<string, Record<string, number>>();
      days.set(day, { ...days.get(day), ...values });
      pages.pageDays.set(pageId, days);
    },
  };
}
