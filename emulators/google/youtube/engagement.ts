// What Crier reads and writes on a channel after publishing: videos.delete, playlistItems.list (the
// uploads playlist, newest first), commentThreads.list (a video's top-level comments, newest first,
// with up to five replies embedded under `replies` when asked), comments.list (a thread's replies by
// `parentId`, or comments by `id`) and comments.insert (a reply to a top-level comment). Quota as in
// determine_quota_cost: lists 1 unit a page, delete and insert 50.
import { isPlainObject, jsonBody, type Reply } from '../../shared/http.ts';
import { noFilter, youtubeError } from '../errors.ts';
import type { GoogleWorld } from '../state/world.ts';
import type { RouteInput } from '../routes/route.ts';
import type { Route } from './api.ts';
import { threadResource } from './api.ts';
import { authenticate, charged, MANAGE_SCOPES, READ_SCOPES } from './auth.ts';
import { uploadsPlaylistOf } from './channels.ts';
import type { YoutubeComment, YoutubeState, YoutubeVideo } from './state.ts';

export function mountEngagement(route: Route, world: GoogleWorld, state: YoutubeState): void {
  route('DELETE', '/youtube/v3/videos', (input) => deleteVideo(world, state, input));
  route('GET', '/youtube/v3/playlistItems', (input) => listPlaylistItems(world, state, input));
  route('GET', '/youtube/v3/commentThreads', (input) => listThreads(world, state, input));
  route('GET', '/youtube/v3/comments', (input) => listComments(world, state, input));
  route('POST', '/youtube/v3/comments', (input) => insertReply(world, state, input));
}

/** Google's page token: the offset, opaque to clients; undefined when it is not one of ours. */
const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function offsetOf(token: string | undefined): number | undefined {
  if (!token) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}
const invalidPageToken = () => youtubeError(400, 'invalidPageToken', 'The request specifies an invalid page token.', 'youtube.parameter', 'pageToken');
/**
 * The page size asked for, or the method's default. The discovery check has already refused a value
 * outside the method's range, so 0 only reaches here where it is allowed (playlistItems.list:
 * `minimum: 0`) and means a page of no items.
 */
const sizeOf = (raw: string | undefined, fallback: number, max: number) => (raw === undefined || raw === '' ? fallback : Math.min(max, Number(raw)));

/** One page of `all` in Google's list envelope. */
function page(kind: string, all: unknown[], offset: number, size: number): Reply {
  const items = all.slice(offset, offset + size);
  return {
    status: 200,
    body: {
      kind,
      etag: Buffer.from(`etag:${kind}:${all.length}:${offset}`).toString('base64url').slice(0, 27),
      // A page of no items leads nowhere: a token to the same offset would page forever.
      ...(size > 0 && offset + size < all.length ? { nextPageToken: pageToken(offset + size) } : {}),
      ...(offset > 0 ? { prevPageToken: pageToken(Math.max(0, offset - size)) } : {}),
      pageInfo: { totalResults: all.length, resultsPerPage: size },
      items,
    },
  };
}

function deleteVideo(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, MANAGE_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!input.query.id) return youtubeError(400, 'required', 'Required parameter: id', 'global', 'id');
  const refused = charged(state, caller.clientId, state.costs.delete);
  if (refused) return refused;
  const video = state.video(input.query.id);
  if (!video) return youtubeError(404, 'videoNotFound', 'The video that you are trying to delete cannot be found.', 'youtube.video', 'id');
  if (video.channelId !== caller.channel.id) return youtubeError(403, 'forbidden', 'The video that you are trying to delete cannot be deleted. The request might not be properly authorized.', 'youtube.video');
  video.deleted = true;
  return { status: 204 };
}

function listPlaylistItems(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, READ_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!input.query.part) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const owner = [...world.store.users.values()].find((u) => u.channel && uploadsPlaylistOf(u.channel.id) === input.query.playlistId)?.channel;
  if (!owner) return youtubeError(404, 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.', 'youtube.playlistItem', 'playlistId');
  const offset = offsetOf(input.query.pageToken);
  if (offset === undefined) return invalidPageToken();
  const refused = charged(state, caller.clientId, state.costs.list);
  if (refused) return refused;
  const mine = owner.id === caller.channel.id;
  const videos = [...state.videos.values()]
    .filter((v) => v.channelId === owner.id && !v.deleted && (mine || privacyOf(v) === 'public'))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
  const parts = new Set(input.query.part.split(','));
  return page('youtube#playlistItemListResponse', videos.map((v, i) => playlistItem(v, owner.title, i, parts)), offset, sizeOf(input.query.maxResults, 5, 50));
}

const privacyOf = (v: YoutubeVideo) => String(v.appliedPrivacy ?? v.status.privacyStatus ?? 'public');

function playlistItem(video: YoutubeVideo, channelTitle: string, position: number, parts: Set<string>): Record<string, unknown> {
  return {
    kind: 'youtube#playlistItem',
    etag: Buffer.from(`etag:pi:${video.id}`).toString('base64url').slice(0, 27),
    id: Buffer.from(`UU.${video.id}`).toString('base64url'),
    ...(parts.has('snippet')
      ? {
          snippet: {
            publishedAt: video.publishedAt, channelId: video.channelId, title: video.snippet.title, description: video.snippet.description ?? '',
            thumbnails: { default: { url: `https://i.ytimg.example/vi/${video.id}/default.jpg`, width: 120, height: 90 } },
            channelTitle, playlistId: uploadsPlaylistOf(video.channelId), position, resourceId: { kind: 'youtube#video', videoId: video.id },
            videoOwnerChannelTitle: channelTitle, videoOwnerChannelId: video.channelId,
          },
        }
      : {}),
    ...(parts.has('contentDetails') ? { contentDetails: { videoId: video.id, videoPublishedAt: video.publishedAt } } : {}),
    ...(parts.has('status') ? { status: { privacyStatus: privacyOf(video) } } : {}),
  };
}

function listThreads(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, MANAGE_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!input.query.part) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const video = input.query.videoId ? state.video(input.query.videoId) : undefined;
  if (!video) return youtubeError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread', 'videoId');
  const offset = offsetOf(input.query.pageToken);
  if (offset === undefined) return invalidPageToken();
  const refused = charged(state, caller.clientId, state.costs.list);
  if (refused) return refused;
  const withReplies = input.query.part.split(',').includes('replies');
  const threads = state.comments.filter((c) => c.videoId === video.id && c.parentId === null).reverse();
  return page('youtube#commentThreadListResponse', threads.map((c) => threadResource(state, c, withReplies, caller.channel.id)), offset, sizeOf(input.query.maxResults, 20, 100));
}

function listComments(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, MANAGE_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!input.query.part) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const { id, parentId } = input.query;
  if ((id === undefined) === (parentId === undefined)) {
    return noFilter(['parentId', 'id']);
  }
  const offset = offsetOf(input.query.pageToken);
  if (offset === undefined) return invalidPageToken();
  const refused = charged(state, caller.clientId, state.costs.list);
  if (refused) return refused;
  const live = (c: YoutubeComment) => state.video(c.videoId) !== undefined;
  const found = id !== undefined
    ? id.split(',').flatMap((one) => state.comments.filter((c) => c.commentId === one && live(c)))
    : state.comments.filter((c) => c.parentId === parentId && live(c));
  return page('youtube#commentListResponse', found.map((c) => commentResource(c, caller.channel.id)), offset, sizeOf(input.query.maxResults, 20, 100));
}

function insertReply(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, MANAGE_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!(input.query.part ?? '').split(',').includes('snippet')) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const body = jsonBody(input.body);
  const snippet = isPlainObject(body) && isPlainObject(body.snippet) ? body.snippet : {};
  const text = typeof snippet.textOriginal === 'string' ? snippet.textOriginal : '';
  if (typeof snippet.parentId !== 'string' || !snippet.parentId) {
    return youtubeError(400, 'parentIdMissing', 'The comment that you are inserting must be linked to a parent comment.', 'youtube.comment');
  }
  if (!text.trim()) return youtubeError(400, 'commentTextRequired', 'The comment resource must contain a value for the snippet.textOriginal property.', 'youtube.comment');
  if ([...text].length > 10_000) return youtubeError(400, 'commentTextTooLong', 'The comment resource contains too many characters in the snippet.textOriginal property.', 'youtube.comment');
  const parent = state.comments.find((c) => c.commentId === snippet.parentId);
  const video = parent && state.video(parent.videoId);
  if (!parent || !video) return youtubeError(404, 'commentNotFound', 'The specified parent comment could not be found.', 'youtube.comment', 'parentId');
  // One tier: only a top-level comment takes replies.
  if (parent.parentId !== null) return youtubeError(400, 'operationNotSupported', 'The API user cannot reply to the comment identified by snippet.parentId.', 'youtube.comment');
  const refused = charged(state, caller.clientId, state.costs.comment);
  if (refused) return refused;
  const reply = state.addComment(video, { channelId: caller.channel.id, displayName: caller.channel.customUrl }, text, parent.commentId);
  return { status: 200, body: commentResource(reply, caller.channel.id) };
}

/** A comment resource. `textOriginal` is the author's only (docs/comments); everyone gets textDisplay. */
export function commentResource(c: YoutubeComment, viewerChannelId: string): Record<string, unknown> {
  const handle = c.authorDisplayName.startsWith('@') ? c.authorDisplayName : undefined;
  return {
    kind: 'youtube#comment',
    etag: Buffer.from(`etag:c:${c.commentId}:${c.likeCount}`).toString('base64url').slice(0, 27),
    id: c.commentId,
    snippet: {
      channelId: c.channelId,
      videoId: c.videoId,
      textDisplay: c.textOriginal,
      ...(c.authorChannelId === viewerChannelId ? { textOriginal: c.textOriginal } : {}),
      ...(c.parentId ? { parentId: c.parentId } : {}),
      authorDisplayName: c.authorDisplayName,
      authorProfileImageUrl: `https://yt3.ggpht.example/${c.authorChannelId}=s48-c-k-c0x00ffffff-no-rj`,
      authorChannelUrl: handle ? `http://www.youtube.com/${handle}` : `http://www.youtube.com/channel/${c.authorChannelId}`,
      authorChannelId: { value: c.authorChannelId },
      canRate: true,
      viewerRating: 'none',
      likeCount: c.likeCount,
      publishedAt: c.publishedAt,
      updatedAt: c.publishedAt,
    },
  };
}
