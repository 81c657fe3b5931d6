// Instagram content publishing, as the emulator keeps it: containers (created by POST
// /{ig-user-id}/media, processed on the emulator's clock), published media, comments, and each
// account's 24-hour publishing count. Kept apart from accounts.ts (users, Pages, tokens): only the
// Instagram routes read it.
import { NumberedIds } from './numbered-ids.ts';

export type ContainerKind = 'IMAGE' | 'VIDEO' | 'REELS' | 'STORIES' | 'CAROUSEL';
export type StatusCode = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

/** What the emulator downloaded from a URL it was given. */
export interface FetchedMedia {
  url: string;
  contentType: string;
  size: number;
  sha256: string;
}

export interface IgContainer {
  id: string;
  igUserId: string;
  kind: ContainerKind;
  carouselItem: boolean;
  /** The parameters as received (form or query), access token left out. */
  params: Record<string, string>;
  children: string[];
  createdAt: number;
  /** Processing ends at this time on the emulator's clock (once the download is done). */
  readyAt: number;
  /** The download is still running. */
  fetching: boolean;
  fetched: FetchedMedia[];
  /** Set when processing failed: the `status` text Graph gives with status_code ERROR. */
  error?: string;
  expired: boolean;
  publishedMediaId?: string;
}

export interface IgMedia {
  id: string;
  igUserId: string;
  containerId: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  productType: 'FEED' | 'REELS' | 'STORY';
  caption?: string;
  shortcode: string;
  timestamp: number;
  /** The container's parameters, and its children's for a carousel, in order. */
  options: Record<string, string>;
  children: { id: string; kind: ContainerKind; options: Record<string, string>; fetched: FetchedMedia[] }[];
  fetched: FetchedMedia[];
}

export interface IgComment {
  id: string;
  mediaId: string;
  /** The author: the account itself, or someone else (an IGSID) added by a test. */
  igUserId: string;
  username: string;
  text: string;
  timestamp: number;
  /** The top-level comment it answers (Instagram threads one level). */
  parentId?: string;
  likeCount: number;
  hidden: boolean;
}

/** A media's insights values as the emulator gives them (setMediaInsights); absent: Meta's "no data". */
export type MediaInsights = Record<string, number>;

/** Containers live 24 hours unpublished; the publishing limit counts the last 24 hours. */
export const DAY_MS = 24 * 3_600_000;

export class InstagramStore extends NumberedIds {
  readonly containers = new Map<string, IgContainer>();
  readonly media = new Map<string, IgMedia>();
  readonly comments: IgComment[] = [];
  readonly mediaInsights = new Map<string, MediaInsights>();
  /** Per account, per UTC day (YYYY-MM-DD): the account insights values of that day. */
  readonly accountDays = new Map<string, Map<string, Record<string, number>>>();
  /** Every publishing call in arrival order: what a test asserts sequences on. */
  readonly calls: { method: string; path: string; params: Record<string, string> }[] = [];
  processingMs = { image: 200, video: 1500 };
  quotaTotal = 50;
  /** While on, no container finishes processing. */
  held = false;
  /** The next containers created fail processing with this status text. */
  readonly failNext: string[] = [];
  /** Until this time every Instagram call answers #80002 (the account's BUC limit). */
  throttledUntil = 0;

  /** A container's status_code now. */
  statusOf(c: IgContainer): StatusCode {
    if (c.publishedMediaId) return 'PUBLISHED';
    if (c.error) return 'ERROR';
    if (c.expired || this.now() - c.createdAt > DAY_MS) return 'EXPIRED';
    if (c.kind === 'CAROUSEL') {
      const children = c.children.map((id) => this.containers.get(id)!);
      const failed = children.find((child) => this.statusOf(child) === 'ERROR');
      if (failed) return 'ERROR';
      if (children.some((child) => this.statusOf(child) !== 'FINISHED')) return 'IN_PROGRESS';
    }
    if (c.fetching || this.held || this.now() < c.readyAt) return 'IN_PROGRESS';
    return 'FINISHED';
  }

  /** Media the account published within the last 24 hours: what content_publishing_limit counts. */
  usage(igUserId: string): number {
    const since = this.now() - DAY_MS;
    return [...this.media.values()].filter((m) => m.igUserId === igUserId && m.timestamp > since).length;
  }

  /** The account's media, newest first (`stories`: its Stories of the last 24 hours instead). */
  mediaOf(igUserId: string, stories: boolean): IgMedia[] {
    const since = this.now() - DAY_MS;
    return [...this.media.values()]
      .filter((m) => m.igUserId === igUserId && (stories ? m.productType === 'STORY' && m.timestamp > since : m.productType !== 'STORY'))
      .sort((a, b) => b.timestamp - a.timestamp || b.id.localeCompare(a.id));
  }
}
