// What Vimeo does beyond publishing (../capabilities.ts): deleting a published video, the member's
// own videos for imports, a video's comments (comments.ts) and the figures of a video and of the
// member. Every call goes through the publishing client (client.ts), so refusals read the same.
import type { AccountMetrics, NetworkCapabilities, OwnPost, Page, PostMetrics } from '../capabilities.ts';
import { idOf, type VimeoClient } from './client.ts';
import { vimeoComments } from './comments.ts';
import { clientOf, pageOf, PER_PAGE, videoUriOf } from './session.ts';

/** Only what an OwnPost is made of: Vimeo's video objects are large. */
const OWN_VIDEO_FIELDS = 'uri,name,description,link,created_time,type';

export function vimeoCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    remove: async (session, post) => clientOf(apiUrl, session).deleteVideo(videoUriOf(post)),
    ownPosts: async (session, options) => ownPosts(clientOf(apiUrl, session), options),
    comments: vimeoComments(apiUrl),
    analytics: {
      post: async (session, post) => postMetrics(await clientOf(apiUrl, session).object(videoUriOf(post), [
        'stats.plays', 'metadata.connections.comments.total', 'metadata.connections.likes.total',
      ])),
      account: async (session) => accountMetrics(await clientOf(apiUrl, session).object('/me', [
        'metadata.connections.followers.total', 'metadata.connections.following.total', 'metadata.connections.videos.total',
      ])),
    },
  };
}

interface ListedOwnVideo {
  uri: string;
  name?: string;
  description?: string | null;
  link?: string;
  created_time?: string;
  type?: string;
}

/**
 * GET /me/videos newest first (sort=date, direction=desc), one page. Vimeo has no date filter on
 * it: `until` drops newer videos, and a video older than `since` ends the listing (no `next`).
 */
async function ownPosts(client: VimeoClient, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const page = pageOf(options.cursor);
  const { data, hasNext } = await client.rawPage('/me/videos', page, PER_PAGE, { sort: 'date', direction: 'desc', fields: OWN_VIDEO_FIELDS });
  const videos = data as ListedOwnVideo[];
  const time = (v: ListedOwnVideo) => Date.parse(v.created_time ?? '');
  const reachedSince = options.since !== undefined && videos.some((v) => time(v) < options.since!.getTime());
  const items = videos
    .filter((v) => (options.until === undefined || !(time(v) > options.until.getTime())) && (options.since === undefined || !(time(v) < options.since.getTime())))
    .map(ownPostOf);
  return { items, ...(hasNext && !reachedSince ? { next: String(page + 1) } : {}) };
}

function ownPostOf(video: ListedOwnVideo): OwnPost {
  return {
    platformId: idOf(video.uri),
    url: video.link ?? `https://vimeo.com/${idOf(video.uri)}`,
    text: video.description ?? '',
    createdAt: video.created_time ?? null,
    mediaCount: 1,
    ref: { uri: video.uri, name: video.name ?? '' },
    // A live event's page is not a video file Crier could show.
    ...(video.type === 'live' ? { unsupported: 'a Vimeo live event, not an uploaded video' } : {}),
  };
}

const total = (value: unknown, name: string): number | null => {
  const connection = ((value as { metadata?: { connections?: Record<string, { total?: unknown }> } })?.metadata?.connections ?? {})[name];
  return typeof connection?.total === 'number' ? connection.total : null;
};

/** stats.plays → views (null while Vimeo has not counted), the comments and likes connections' totals. */
function postMetrics(video: Record<string, unknown>): PostMetrics {
  const plays = (video.stats as { plays?: unknown } | undefined)?.plays;
  return {
    likes: total(video, 'likes'),
    comments: total(video, 'comments'),
    shares: null,
    views: typeof plays === 'number' ? plays : null,
    reach: null,
    saves: null,
    impressions: null,
    platform_specific: {},
  };
}

/** The member's current totals: Vimeo gives no history, so never ranged. */
function accountMetrics(me: Record<string, unknown>): AccountMetrics {
  return { followers: total(me, 'followers'), following: total(me, 'following'), posts: total(me, 'videos'), engagement: null, ranged: false, platform_specific: {} };
}
