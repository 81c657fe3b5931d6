// Page publishing as the emulator keeps it: photos (uploaded as bytes, published or not), feed posts
// (text, link, attached photos), and comments on them, in order. Apart from accounts.ts (users, Pages,
// tokens): only the Page publishing routes read it.
import type { PageVideo } from './page-videos.ts';

export interface PagePhoto {
  id: string;
  pageId: string;
  published: boolean;
  contentType: string;
  size: number;
  sha256: string;
  caption?: string;
  /** The feed post it is attached to, once attached. */
  postId?: string;
}

export interface PagePost {
  id: string;
  pageId: string;
  kind: 'post' | 'video' | 'reel' | 'story';
  message?: string;
  link?: string;
  /** Attached photos, in order. */
  photoIds: string[];
  createdAt: number;
  /** Every parameter as received (token left out). */
  params: Record<string, string>;
}

export interface PageComment {
  id: string;
  postId: string;
  /** The Page commenting, or a person (a Page-scoped id) added by a test. */
  fromId: string;
  fromName: string;
  message: string;
  createdAt: number;
  /** The top-level comment it answers (Facebook threads one level). */
  parentId?: string;
  likeCount: number;
}

/** A post's figures as the emulator gives them (setPostStats). */
export interface PostStats {
  reactions: Record<string, number>;
  shares: number;
  /** Insights: post_media_view, post_total_media_view_unique, post_clicks. */
  views: number;
  reach: number;
  clicks: number;
}

/** "Page Insights data is only available on Pages with 100 or more likes" (the Insights reference): likes = fan_count. */
export const PAGE_INSIGHTS_MIN_LIKES = 100;

/**
 * How /{page-id}/insights answers a Page under PAGE_INSIGHTS_MIN_LIKES: Meta's Pages API error-codes
 * page lists error 2874008 for it ('error', the default); third-party reports show `{"data": []}`
 * ('empty'). Both are kept so that a client can be held to each.
 */
export type SmallPageInsights = 'error' | 'empty';

export class PagesStore {
  readonly photos = new Map<string, PagePhoto>();
  readonly videos = new Map<string, PageVideo>();
  /** Video processing time on the emulator's clock, after finish. */
  processingMs = 1000;
  /** The next finished video fails processing with this message. */
  failNextVideo: string | undefined;
  readonly posts = new Map<string, PagePost>();
  readonly comments: PageComment[] = [];
  readonly postStats = new Map<string, PostStats>();
  /** Per Page, per UTC day (YYYY-MM-DD): the Page insights values of that day. */
  readonly pageDays = new Map<string, Map<string, Record<string, number>>>();
  /** Every Page publishing call in order, with the Host it was sent to (graph, graph-video, rupload). */
  readonly calls: { method: string; path: string; params: Record<string, string>; host?: string }[] = [];
  /** The next publishing calls answer #368 (blocked for policy). */
  blockNext = 0;
  /** Until this time every Page call answers #32 with X-Page-Usage at 100%. */
  throttledUntil = 0;
  /**
   * The app has Meta's "Page Public Metadata Access" feature (App Review): any valid token then reads
   * the public fields of Pages it does not manage; without it such a read is #10.
   */
  publicMetadataAccess = false;
  smallPageInsights: SmallPageInsights = 'error';
  #seq = 0;

  nextId(): string {
    this.#seq += 1;
    return String(900_000_000_000_000 + this.#seq);
  }
}
