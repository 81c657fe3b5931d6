// The Threads emulator's state, shared by its routes and controls: users, the OAuth server, which
// tokens are long-lived (only those can be refreshed, once 24 hours old), containers and published
// media, deletions, user insights and the replies webhook subscription.
import type { FetchMedia } from '../shared/media-fetch.ts';
import type { Clock } from '../shared/clock.ts';
import type { OAuthServer } from '../shared/oauth.ts';

export interface ThreadsUser {
  /** Threads user id (a numeric string, as Meta's ids are). */
  id: string;
  username: string;
  name: string;
  profilePictureUrl: string | null;
  biography: string;
  isVerified: boolean;
}

export interface ThreadsSettings {
  /** Short-lived token from the code exchange (Meta: 1 h). */
  shortLivedSecs: number;
  /** Long-lived token from th_exchange_token and th_refresh_token (Meta: 60 days). */
  longLivedSecs: number;
  /** How old a long-lived token must be before th_refresh_token accepts it (Meta: 24 h). */
  minRefreshAgeSecs: number;
}

export interface ThreadsWorld {
  clock: Clock;
  oauth: OAuthServer;
  users: Map<string, ThreadsUser>;
  /** Long-lived tokens (from th_exchange_token, th_refresh_token or issueLongLived). */
  longLived: Set<string>;
  settings: ThreadsSettings;
  publishing: PublishingWorld;
  engagement: EngagementWorld;
}

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
export type ContainerType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';

/** A media container (POST /{user-id}/threads): what will be published, and how far Threads got with it. */
export interface ThreadsContainer {
  id: string;
  userId: string;
  mediaType: ContainerType;
  text: string | undefined;
  imageUrl: string | undefined;
  videoUrl: string | undefined;
  altText: string | undefined;
  isCarouselItem: boolean;
  /** Carousel children's container ids, in order. */
  children: string[];
  replyToId: string | undefined;
  replyControl: string | undefined;
  allowlistedCountryCodes: string[] | undefined;
  createdAt: number;
  /** On the emulator clock: IN_PROGRESS until then (and until the media fetch, if any, has ended). */
  readyAt: number;
  /** Set when the media fetch (video) or the injected failure ended in ERROR. */
  errorMessage: string | undefined;
  /** The fetch of video_url is still running. */
  fetching: boolean;
  /** Held IN_PROGRESS until released (stickNextContainer). */
  stuck: boolean;
  /** What the fetched media turned out to be (sniffed), and its size. */
  fetched: { mime: string; bytes: number } | undefined;
  /** The media id once published. */
  publishedAs: string | undefined;
}

/** A published post or reply (threads_publish). */
export interface ThreadsMedia {
  id: string;
  containerId: string;
  userId: string;
  username: string;
  /** AUDIO and REPOST_FACADE (a repost of someone else's post) are only ever seeded (addPost): Crier cannot publish them. */
  mediaType: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM' | 'AUDIO' | 'REPOST_FACADE';
  text: string | undefined;
  replyToId: string | undefined;
  rootId: string;
  replyControl: string;
  allowlistedCountryCodes: string[] | undefined;
  /** The media the post shows: the container's, or each carousel child's, in order. */
  media: { mediaType: ContainerType; url: string; altText: string | undefined; mime: string | undefined }[];
  shortcode: string;
  permalink: string;
  publishedAt: number;
  /** Set by setPostInsights: the lifetime figures /insights answers (replies are counted from the tree). */
  insights?: Partial<Record<PostMetric, number>>;
  /** A reply the root's owner hid (hide_status HIDDEN). */
  hidden?: boolean;
}

/** The metrics GET /{media-id}/insights takes (insights doc). */
export const POST_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;
export type PostMetric = typeof POST_METRICS[number];

/** The metrics GET /{user-id}/threads_insights takes (insights doc). */
export const USER_METRICS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count', 'follower_demographics'] as const;
export type UserMetric = typeof USER_METRICS[number];

/** One day of a user's figures (UTC day, YYYY-MM-DD); `views` are profile views. */
export interface UserInsightsDay {
  day: string;
  views?: number;
  likes?: number;
  replies?: number;
  reposts?: number;
  quotes?: number;
  clicks?: number;
}

/** What /threads_insights reads for a user: daily figures and the current follower count. */
export interface UserInsights {
  followersCount: number;
  days: UserInsightsDay[];
}

/** What the engagement side keeps besides the posts: deletions (for the 100-a-day limit) and user insights. */
export interface EngagementWorld {
  /** Deletes per moving 24 h (delete-posts doc: 100). */
  deleteQuotaTotal: number;
  deletes: { userId: string; mediaId: string; at: number }[];
  userInsights: Map<string, UserInsights>;
  /** Where every new reply is notified (the app's `replies` subscription), when a test or the sandbox set it. */
  subscription?: { callbackUrl: string; appId: string; appSecret: string };
  /** The notifications the subscription sent, in order: the callback's answer, or why it could not be reached. */
  deliveries: { replyId: string; status: number | null; body: string }[];
}

/** The publishing settings (overview doc: 250 posts and 1,000 replies per moving 24 h). */
export interface PublishingSettings {
  quotaTotal: number;
  replyQuotaTotal: number;
  quotaDurationSecs: number;
  /** How long a container stays IN_PROGRESS, by kind (ms on the emulator clock). */
  processingMs: { TEXT: number; IMAGE: number; VIDEO: number; CAROUSEL: number };
  /** A container not published within this is EXPIRED (Meta: 24 h). */
  expiryMs: number;
}

/** One-shot behaviours a test arms: they apply to the next container created, or the next publish. */
export interface PublishingFaults {
  failNextContainer?: string;
  expireNextContainer?: boolean;
  stickNextContainer?: { text: string | undefined };
  /** The next publish of a FINISHED container answers "Media Not Found" this many times. */
  notFoundPublishes: number;
  /** The next successful publish answers this late (ms). */
  delayPublishAnswerMs?: number;
  /** The next successful publish (of a container with this text, if set) is answered with a 500. */
  losePublishAnswer?: { text: string | undefined };
}

export interface PublishingWorld {
  containers: Map<string, ThreadsContainer>;
  media: ThreadsMedia[];
  settings: PublishingSettings;
  faults: PublishingFaults;
  /** Extra certificate authorities the media fetch trusts (a test's HTTPS hosts). */
  fetchCa: string[];
  /** The fetch media is downloaded with, when the emulator was given one (shared/media-fetch.ts). */
  fetchMedia?: FetchMedia;
}
