// What YouTube does beyond publishing (../capabilities.ts): deleting a published video, the channel's
// own videos for imports, a video's comments (comments.ts), and the figures of a video and of the
// channel — through the publishing client (client.ts), so refusals read the same (quotaExceeded waits
// for the Pacific midnight, 401 is an auth failure, 404 not_found).
//
// Quota units each call costs the Cloud project (determine_quota_cost): videos.delete 50; channels,
// playlistItems, videos, commentThreads and comments lists 1 a page; comments.insert and
// commentThreads.insert 50, charged to the managed-key pool's units for accounts on the operator's key
// (session.ts metered, pool.ts).
import type { AccountMetrics, AccountSession, NetworkCapabilities, OwnPost, Page, PostMetrics } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import type { YoutubeClient } from './client.ts';
import { youtubeComments } from './comments.ts';
import type { PoolSettings } from './settings.ts';
import { checkedCursor, metered, videoIdOf } from './session.ts';

/** playlistItems.list's largest page. */
const PLAYLIST_PAGE = 50;

export function youtubeCapabilities(apiUrl: string, pool: PoolSettings): NetworkCapabilities {
  const withClient = <T>(session: AccountSession, work: (client: YoutubeClient) => Promise<T>) => metered(apiUrl, pool, session, work);
  return {
    remove: async (session, post) => withClient(session, (client) => client.deleteVideo(videoIdOf(post))),
    ownPosts: async (session, options) => withClient(session, (client) => ownPosts(client, options)),
    comments: youtubeComments(withClient),
    analytics: {
      post: async (session, post) => {
        const id = videoIdOf(post);
        const { items } = await withClient(session, (client) => client.list('videos', { part: 'statistics', id }));
        if (!items[0]) throw new PublishError('permanent', `youtube: video ${id} is not on YouTube (deleted, or not visible to the channel)`, undefined, 'not_found');
        return postMetrics(items[0]);
      },
      account: async (session) => {
        const { items } = await withClient(session, (client) => client.list('channels', { part: 'statistics', mine: 'true' }));
        if (!items[0]) throw new PublishError('permanent', 'youtube: the account has no YouTube channel', undefined, 'not_found');
        return accountMetrics(items[0]);
      },
    },
  };
}

interface PlaylistItem {
  snippet?: { title?: string; description?: string; publishedAt?: string; thumbnails?: Record<string, unknown> };
  contentDetails?: { videoId?: string; videoPublishedAt?: string };
  status?: { privacyStatus?: string };
}

/**
 * The channel's uploads playlist (channels.list contentDetails), one playlistItems.list page, newest
 * first. There is no date filter: videos newer than `until` are dropped, and a video older than
 * `since` ends the listing (no `next`).
 */
async function ownPosts(client: YoutubeClient, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const pageToken = checkedCursor(options.cursor);
  const channel = (await client.list('channels', { part: 'contentDetails', mine: 'true' })).items[0] as { contentDetails?: { relatedPlaylists?: { uploads?: string } } } | undefined;
  const uploads = channel?.contentDetails?.relatedPlaylists?.uploads;
  if (!uploads) throw new PublishError('permanent', 'youtube: the account has no YouTube channel with uploads', undefined, 'not_found');
  const page = await client.list('playlistItems', { part: 'snippet,contentDetails,status', playlistId: uploads, maxResults: String(PLAYLIST_PAGE), pageToken });
  const videos = (page.items as PlaylistItem[]).filter((v) => v.contentDetails?.videoId);
  const time = (v: PlaylistItem) => Date.parse(v.contentDetails?.videoPublishedAt ?? v.snippet?.publishedAt ?? '');
  const since = options.since?.getTime();
  const until = options.until?.getTime();
  const items = videos.filter((v) => !(until !== undefined && time(v) > until) && !(since !== undefined && time(v) < since)).map(ownPostOf);
  const reachedSince = since !== undefined && videos.some((v) => time(v) < since);
  return { items, ...(page.next && !reachedSince ? { next: page.next } : {}) };
}

function ownPostOf(item: PlaylistItem): OwnPost {
  const id = item.contentDetails!.videoId!;
  return {
    platformId: id,
    url: `https://www.youtube.com/watch?v=${id}`,
    text: item.snippet?.description ?? '',
    createdAt: item.contentDetails?.videoPublishedAt ?? item.snippet?.publishedAt ?? null,
    mediaCount: 1,
    ref: { title: item.snippet?.title ?? '', privacyStatus: item.status?.privacyStatus ?? null },
  };
}

/** A count YouTube gives as a string (uint64); null when absent. */
const count = (value: unknown): number | null => {
  const n = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** videos.list statistics: viewCount, likeCount, commentCount; favoriteCount (always 0) kept under its name. */
function postMetrics(video: Record<string, unknown>): PostMetrics {
  const stats = (video.statistics ?? {}) as Record<string, unknown>;
  const others = Object.fromEntries(Object.entries(stats).filter(([name]) => !['viewCount', 'likeCount', 'commentCount'].includes(name)).map(([name, v]) => [name, count(v)]));
  return { likes: count(stats.likeCount), comments: count(stats.commentCount), shares: null, views: count(stats.viewCount), reach: null, saves: null, impressions: null, platform_specific: others };
}

/** channels.list statistics, the channel's current totals (never ranged); a hidden subscriber count is null. */
function accountMetrics(channel: Record<string, unknown>): AccountMetrics {
  const stats = (channel.statistics ?? {}) as Record<string, unknown>;
  return {
    followers: stats.hiddenSubscriberCount === true ? null : count(stats.subscriberCount),
    following: null,
    posts: count(stats.videoCount),
    engagement: null,
    ranged: false,
    platform_specific: { viewCount: count(stats.viewCount), hiddenSubscriberCount: stats.hiddenSubscriberCount === true },
  };
}
