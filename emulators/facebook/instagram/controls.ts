// The test and sandbox handle on Instagram publishing: what was received (calls, containers,
// published media with their options, comments, in order) and the switches that make Meta's
// processing slow, fail, expire, hit the publishing limit or throttle the account.
import type { IgComment, IgContainer, IgMedia, InstagramStore } from './store.ts';
import { processingStatus } from './errors.ts';

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
  /** Publishes `count` media on the account as if from elsewhere, now (filling the limit). */
  publishedElsewhere(igUserId: string, count: number): void;
  /** Every call on Instagram answers #80002 for this long, with estimated_time_to_regain_access. */
  throttle(ms: number): void;
}

export function instagramControls(store: InstagramStore): InstagramControls {
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
    publishedElsewhere: (igUserId, count) => {
      for (let i = 0; i < count; i++) {
        const id = store.nextId('1800');
        store.media.set(id, {
          id, igUserId, containerId: '', mediaType: 'IMAGE', productType: 'FEED', caption: `elsewhere ${i}`, shortcode: id,
          timestamp: store.now() - i, options: {}, children: [], fetched: [],
        });
      }
    },
    throttle: (ms) => {
      store.throttledUntil = store.now() + ms;
    },
  };
}
