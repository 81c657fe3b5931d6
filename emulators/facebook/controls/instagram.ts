// The test and sandbox handle on Instagram publishing: what was received (calls, containers,
// published media with their options, comments, in order) and the switches that make Meta's
// processing slow, fail, expire, hit the publishing limit or throttle the account.
import type { FacebookStore } from '../state/accounts.ts';
import type { IgComment, IgContainer, IgMedia, InstagramStore } from '../state/instagram.ts';
import { processingStatus } from '../errors/instagram.ts';

export interface InstagramControls {
  /** Every publishing call (container, status, publish, limit, media, comments), in order. */
  calls(): { method: string; path: string; params: Record<string, string> }[];
  containers(): IgContainer[];
  /** Published media, oldest first, with the options their containers were created with. */
  published(): IgMedia[];
  comments(mediaId?: string): IgComment[];
  /** How long processing takes on the emulator's clock after the download. */
  setProcessingMs(ms: { image?: number; video?: number }): void;
  /** While on, containers stay IN_PROGRESS. */
  hold(on?: boolean): void;
  /** The next container created ends in status_code ERROR with this status text. */
  failNextContainer(status?: string): void;
  /** The container answers EXPIRED from now on. */
  expire(containerId: string): void;
  /** The publishing limit (default 50 per 24 h). */
  setQuota(total: number): void;
  /**
   * Publishes `count` media on the account as if from elsewhere, now (filling the limit): images by
   * default, or of the kind given (a Reel, a Story, a carousel of `children` items). Their ids, newest first.
   */
  publishedElsewhere(igUserId: string, count: number, kind?: { productType?: IgMedia['productType']; mediaType?: IgMedia['mediaType']; caption?: string; children?: number }): string[];
  /** Every call on Instagram answers #80002 for this long, with estimated_time_to_regain_access. */
  throttle(ms: number): void;
  /**
   * A comment by someone else on a media, or an answer to comment `objectId` (an answer to an answer
   * goes under the top-level comment, as on Instagram).
   */
  addComment(objectId: string, input: { text: string; username?: string; fromId?: string; likeCount?: number; hidden?: boolean }): IgComment;
  /** A media's insights values (views, reach, likes, shares, saved, total_interactions…); `comments` is counted. */
  setMediaInsights(mediaId: string, values: Record<string, number>): void;
  /** The user node's followers_count and follows_count (media_count is counted). */
  setAccountCounts(igUserId: string, counts: { followers?: number; follows?: number }): void;
  /** The account's insights values of one UTC day (YYYY-MM-DD): views, reach, total_interactions… */
  setAccountDay(igUserId: string, day: string, values: Record<string, number>): void;
}

export function instagramControls(store: InstagramStore, fb: FacebookStore): InstagramControls {
  let people = 0;
  return {
    calls: () => [...store.calls],
    containers: () => [...store.containers.values()],
    published: () => [...store.media.values()].sort((a, b) => a.timestamp - b.timestamp || a.id.localeCompare(b.id)),
    comments: (mediaId) => store.comments.filter((c) => mediaId === undefined || c.mediaId === mediaId),
    setProcessingMs: (ms) => {
      store.processingMs = { ...store.processingMs, ...ms };
    },
    hold: (on = true) => {
      store.held = on;
    },
    failNextContainer: (status = processingStatus.failed) => {
      store.failNext.push(status);
    },
    expire: (containerId) => {
      const container = store.containers.get(containerId);
      if (!container) throw new Error(`no container ${containerId}`);
      container.expired = true;
    },
    setQuota: (total) => {
      store.quotaTotal = total;
    },
    publishedElsewhere: (igUserId, count, kind = {}) => {
      const ids: string[] = [];
      // One clock reading: the i-th is i ms older, so the order stays the seeding order.
      const now = store.now();
      for (let i = 0; i < count; i++) {
        const id = store.nextId('1800');
        const children = Array.from({ length: kind.children ?? 0 }, () => ({ id: store.nextId('1790'), kind: 'IMAGE' as const, options: {}, fetched: [] }));
        store.media.set(id, {
          id, igUserId, containerId: '', mediaType: kind.mediaType ?? (children.length ? 'CAROUSEL_ALBUM' : 'IMAGE'), productType: kind.productType ?? 'FEED',
          caption: kind.caption ?? `elsewhere ${i}`, shortcode: id, timestamp: now - i, options: {}, children, fetched: [],
        });
        ids.push(id);
      }
      return ids;
    },
    throttle: (ms) => {
      store.throttledUntil = store.now() + ms;
    },
    addComment: (objectId, input) => {
      const target = store.comments.find((c) => c.id === objectId);
      const mediaId = target?.mediaId ?? objectId;
      if (!store.media.has(mediaId)) throw new Error(`no media or comment ${objectId}`);
      people += 1;
      const parentId = target ? target.parentId ?? target.id : undefined;
      const comment: IgComment = {
        id: store.nextId('1810'), mediaId, igUserId: input.fromId ?? String(6_000_000_000_000_000 + people), username: input.username ?? `commenter_${people}`,
        text: input.text, timestamp: store.now(), likeCount: input.likeCount ?? 0, hidden: input.hidden ?? false, ...(parentId ? { parentId } : {}),
      };
      store.comments.push(comment);
      return comment;
    },
    setMediaInsights: (mediaId, values) => {
      store.mediaInsights.set(mediaId, { ...store.mediaInsights.get(mediaId), ...values });
    },
    setAccountCounts: (igUserId, counts) => {
      const found = fb.instagram(igUserId);
      if (!found) throw new Error(`no instagram account ${igUserId}`);
      if (counts.followers !== undefined) found.account.followersCount = counts.followers;
      if (counts.follows !== undefined) found.account.followsCount = counts.follows;
    },
    setAccountDay: (igUserId, day, values) => {
      const days = store.accountDays.get(igUserId) ?? new Map<string, Record<string, number>>();
      days.set(day, { ...days.get(day), ...values });
      store.accountDays.set(igUserId, days);
    },
  };
}
