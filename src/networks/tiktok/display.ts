// The creator's videos and figures after publishing, through the Display API (open.tiktokapis.com):
// the public videos for imports and reconciliation (POST /v2/video/list/, cursor-paged, newest first),
// a video's counts (POST /v2/video/query/ by id) and the account's (GET /v2/user/info/ stats fields).
// TikTok has no delete and no comment API for an ordinary app (engagement.md §9): README.md.
import type { AccountMetrics, AccountSession, OwnPost, Page, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { TikTokClient, type DisplayVideo } from './client.ts';

const LIST_FIELDS = ['id', 'title', 'video_description', 'create_time', 'share_url', 'cover_image_url', 'duration'];
const COUNT_FIELDS = ['id', 'like_count', 'comment_count', 'share_count', 'view_count'];
const STATS_FIELDS = ['follower_count', 'following_count', 'likes_count', 'video_count'];
/** The Display API's largest page. */
const PAGE = 20;
/** A public video's id is a number; anything else Crier holds is a publish_id (TikTok's "v_pub_file~…"). */
const VIDEO_ID = /^\d+$/;

const clientFor = (apiUrl: string, session: AccountSession, scope: string): TikTokClient => {
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'tiktok: the account has no access token; reconnect it', undefined, 'auth');
  return new TikTokClient(apiUrl, token, scope);
};

/**
 * One page of the creator's public videos. `cursor` is TikTok's (milliseconds: videos created before
 * it), so a first page starts at `until`; paging stops once a page reaches back past `since`.
 */
export async function ownVideos(apiUrl: string, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const start = options.cursor !== undefined ? Number(options.cursor) : options.until ? options.until.getTime() + 1 : undefined;
  if (start !== undefined && (!Number.isInteger(start) || start < 0)) throw new PublishError('permanent', `tiktok: "${options.cursor}" is not a cursor of the video list`, undefined, 'invalid');
  const page = await clientFor(apiUrl, session, 'video.list').videoList(LIST_FIELDS, PAGE, start);
  const oldest = page.videos.at(-1)?.create_time;
  const pastSince = options.since !== undefined && oldest !== undefined && oldest * 1000 < options.since.getTime();
  const more = page.hasMore && page.cursor !== undefined && !pastSince;
  return { items: page.videos.map(ownPostOf), ...(more ? { next: String(page.cursor) } : {}) };
}

function ownPostOf(video: DisplayVideo): OwnPost {
  return {
    platformId: video.id,
    url: video.share_url ?? '',
    text: video.video_description || video.title || '',
    createdAt: typeof video.create_time === 'number' ? new Date(video.create_time * 1000).toISOString() : null,
    mediaCount: 1,
    ref: { title: video.title ?? null, ...(typeof video.duration === 'number' ? { duration: video.duration } : {}) },
  };
}

/** The video's like, comment, share and view counts (TikTok gives no reach, saves or impressions). */
export async function videoMetrics(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  const id = post.root.platformId;
  // An inbox draft (MEDIA_UPLOAD) or a SELF_ONLY post is known by its publish_id only: when the creator
  // posts the draft, TikTok gives the video a new id that nothing tells Crier.
  if (!VIDEO_ID.test(id)) {
    throw new PublishError('permanent', `tiktok: ${id} is a publish_id, not a public video (an inbox draft the creator finishes in the app, or a SELF_ONLY post): TikTok gives no figures for it`, undefined, 'not_found');
  }
  const [video] = await clientFor(apiUrl, session, 'video.list').videoQuery(COUNT_FIELDS, [id]);
  if (!video) throw new PublishError('permanent', `tiktok: video ${id} is not among the creator's public videos (deleted, or made private)`, undefined, 'not_found');
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    likes: count(video.like_count),
    comments: count(video.comment_count),
    shares: count(video.share_count),
    views: count(video.view_count),
    reach: null,
    saves: null,
    impressions: null,
    platform_specific: {},
  };
}

/** The account's current totals: TikTok keeps no history, so the period is not honoured (`ranged: false`). */
export async function creatorMetrics(apiUrl: string, session: AccountSession): Promise<AccountMetrics> {
  const user = await clientFor(apiUrl, session, 'user.info.stats').userInfo(STATS_FIELDS);
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    followers: count(user.follower_count),
    following: count(user.following_count),
    posts: count(user.video_count),
    // The lifetime likes across the creator's videos: TikTok's only engagement figure for an account.
    engagement: count(user.likes_count),
    ranged: false,
    platform_specific: { likes_count: count(user.likes_count) },
  };
}
