// The API host's YouTube paths publishing uses (www.googleapis.com/youtube/v3/…): videos.list (the
// processing state of an upload: every look by its owner moves processing on by one poll; its
// statistics) and commentThreads.insert (a top-level comment). Every route, here and in channels.ts
// and engagement.ts, goes through `route`: logged in order, faults applied, answered.
import type { FastifyInstance } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import { isPlainObject, jsonBody, send, type Reply } from '../../shared/http.ts';
import { noFilter, richError, youtubeError } from '../errors.ts';
import type { GoogleWorld } from '../state/world.ts';
import type { RouteInput } from '../routes/route.ts';
import { authenticate, charged, MANAGE_SCOPES, READ_SCOPES } from './auth.ts';
import { mountChannels } from './channels.ts';
import { commentResource, mountEngagement } from './engagement.ts';
import { videoResource } from './metadata.ts';
import { checkedQuery, methodIdOf } from '../validate/youtube-query.ts';
import type { CallRecord, YoutubeComment, YoutubeState } from './state.ts';

const VIDEO_PARTS = new Set(['id', 'snippet', 'status', 'processingDetails', 'contentDetails', 'statistics', 'player', 'topicDetails', 'recordingDetails', 'fileDetails', 'suggestions', 'liveStreamingDetails', 'localizations']);

export type Handler = (input: RouteInput) => Reply;
/** Registers one YouTube route on the emulator's app. */
export type Route = (method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler) => void;

export function mountApi(app: FastifyInstance, world: GoogleWorld, state: YoutubeState, faults: FaultQueue): void {
  const route: Route = (method, url, handler) => {
    const methodId = methodIdOf(method, url);
    app.route({ method, url, handler: async (req, reply) => {
      // Parameters are checked against the discovery document before the route runs.
      const checked = checkedQuery(methodId, req.query);
      const { query } = checked;
      const record: CallRecord = { method, path: url, query, status: 0 };
      state.calls.push(record);
      const fault = faults.take(method, url);
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      const out = fault
        ? { status: fault.status, headers: fault.headers, body: fault.body ?? richError(fault.status, 'The service is currently unavailable.').body }
        : !checked.ok ? checked.reply
        : handler({ query, params: req.params as Record<string, string>, body: req.body, headers: req.headers as Record<string, string | undefined> });
      record.status = out.status;
      return send(reply, out);
    } });
  };
  route('GET', '/youtube/v3/videos', (input) => listVideos(world, state, input));
  route('POST', '/youtube/v3/commentThreads', (input) => insertComment(world, state, input));
  mountChannels(route, world, state);
  mountEngagement(route, world, state);
}

function listVideos(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, READ_SCOPES);
  if (!caller.ok) return caller.reply;
  const parts = new Set((input.query.part ?? '').split(',').map((p) => p.trim()).filter(Boolean));
  if (parts.size === 0) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const unknown = [...parts].find((p) => !VIDEO_PARTS.has(p));
  if (unknown) return youtubeError(400, 'unknownPart', `'${unknown}'`, 'youtube.part', 'part');
  if (!input.query.id) return noFilter(['myRating', 'id', 'chart']);
  const refused = charged(state, caller.clientId, state.costs.list);
  if (refused) return refused;
  const items = input.query.id.split(',').flatMap((id) => {
    const video = state.video(id);
    if (!video || (video.channelId !== caller.channel.id && video.status.privacyStatus === 'private')) return [];
    const owner = video.channelId === caller.channel.id;
    if (owner) state.poll(video);
    // processingDetails is the owner's only.
    const shown = owner ? parts : new Set([...parts].filter((p) => p !== 'processingDetails'));
    return [videoResource(video, caller.channel.title, shown, state.comments.filter((c) => c.videoId === video.id).length)];
  });
  return { status: 200, body: { kind: 'youtube#videoListResponse', etag: etag(items.length), items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } } };
}

function insertComment(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, MANAGE_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!(input.query.part ?? '').split(',').includes('snippet')) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const body = jsonBody(input.body);
  const snippet = isPlainObject(body) && isPlainObject(body.snippet) ? body.snippet : undefined;
  const top = snippet && isPlainObject(snippet.topLevelComment) && isPlainObject(snippet.topLevelComment.snippet) ? snippet.topLevelComment.snippet : undefined;
  const text = typeof top?.textOriginal === 'string' ? top.textOriginal : '';
  if (!text.trim()) return youtubeError(400, 'commentTextRequired', 'The comment resource must contain a value for the snippet.topLevelComment.snippet.textOriginal property.', 'youtube.commentThread');
  if ([...text].length > 10_000) return youtubeError(400, 'commentTextTooLong', 'The comment resource that is being inserted or updated contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.', 'youtube.commentThread');
  const video = typeof snippet?.videoId === 'string' ? state.video(snippet.videoId) : undefined;
  if (!video) return youtubeError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread', 'videoId');
  const refused = charged(state, caller.clientId, state.costs.comment);
  if (refused) return refused;
  const comment = state.addComment(video, { channelId: caller.channel.id, displayName: caller.channel.customUrl }, text);
  return { status: 200, body: threadResource(state, comment, false, caller.channel.id) };
}

/** A thread: its top-level comment, the reply count, and (`replies` part) up to five of its replies. */
export function threadResource(state: YoutubeState, comment: YoutubeComment, withReplies: boolean, viewerChannelId: string): Record<string, unknown> {
  const replies = state.comments.filter((c) => c.parentId === comment.commentId);
  return {
    kind: 'youtube#commentThread',
    etag: etag(comment.threadId),
    id: comment.threadId,
    snippet: { channelId: comment.channelId, videoId: comment.videoId, topLevelComment: commentResource(comment, viewerChannelId), canReply: true, totalReplyCount: replies.length, isPublic: true },
    // YouTube embeds a subset of the replies (five here); comments.list?parentId= has them all.
    ...(withReplies && replies.length ? { replies: { comments: replies.slice(0, 5).map((r) => commentResource(r, viewerChannelId)) } } : {}),
  };
}

const etag = (seed: unknown) => Buffer.from(`etag:${String(seed)}:${Date.now()}`).toString('base64url').slice(0, 27);
