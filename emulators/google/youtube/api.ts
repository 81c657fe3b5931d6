// The API host's YouTube paths publishing uses (www.googleapis.com/youtube/v3/…): videos.list (the
// processing state of an upload: every look by its owner moves processing on by one poll) and
// commentThreads (insert a top-level comment; list a video's threads, newest first, paged).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import { firstValues, isPlainObject, jsonBody, send, type Reply } from '../../shared/http.ts';
import { richError } from '../errors.ts';
import type { RouteInput, GoogleWorld } from '../world.ts';
import { authenticate, charged, MANAGE_SCOPES, READ_SCOPES, youtubeError } from './auth.ts';
import { videoResource } from './metadata.ts';
import type { CallRecord, YoutubeComment, YoutubeState } from './state.ts';

const VIDEO_PARTS = new Set(['id', 'snippet', 'status', 'processingDetails', 'contentDetails', 'statistics', 'player', 'topicDetails', 'recordingDetails', 'fileDetails', 'suggestions', 'liveStreamingDetails', 'localizations']);

type Handler = (input: RouteInput) => Reply;

export function mountApi(app: FastifyInstance, world: GoogleWorld, state: YoutubeState, faults: FaultQueue): void {
  const route = (method: 'GET' | 'POST', url: string, handler: Handler) => app.route({
    method,
    url,
    handler: async (req, reply) => {
      const query = firstValues(req.query);
      const record: CallRecord = { method, path: url, query, status: 0 };
      state.calls.push(record);
      const fault = faults.take(method, url);
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      const out = fault
        ? { status: fault.status, headers: fault.headers, body: fault.body ?? richError(fault.status, 'The service is currently unavailable.').body }
        : handler({ query, params: req.params as Record<string, string>, body: req.body, headers: req.headers as Record<string, string | undefined> });
      record.status = out.status;
      return send(reply, out);
    },
  });
  route('GET', '/youtube/v3/videos', (input) => listVideos(world, state, input));
  route('POST', '/youtube/v3/commentThreads', (input) => insertComment(world, state, input));
  route('GET', '/youtube/v3/commentThreads', (input) => listComments(world, state, input));
}

function listVideos(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, READ_SCOPES);
  if (!caller.ok) return caller.reply;
  const parts = new Set((input.query.part ?? '').split(',').map((p) => p.trim()).filter(Boolean));
  if (parts.size === 0) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const unknown = [...parts].find((p) => !VIDEO_PARTS.has(p));
  if (unknown) return youtubeError(400, 'unknownPart', `'${unknown}'`, 'youtube.part', 'part');
  if (!input.query.id) return youtubeError(400, 'missingRequiredParameter', 'No filter selected. Expected one of: myRating, id, chart', 'youtube.parameter', 'parameters');
  const refused = charged(state, caller.clientId, state.costs.list);
  if (refused) return refused;
  const items = input.query.id.split(',').flatMap((id) => {
    const video = state.videos.get(id);
    if (!video || (video.channelId !== caller.channel.id && video.status.privacyStatus === 'private')) return [];
    const owner = video.channelId === caller.channel.id;
    if (owner) state.poll(video);
    // processingDetails is the owner's only.
    const shown = owner ? parts : new Set([...parts].filter((p) => p !== 'processingDetails'));
    return [videoResource(video, caller.channel.title, shown)];
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
  const video = typeof snippet?.videoId === 'string' ? state.videos.get(snippet.videoId) : undefined;
  if (!video) return youtubeError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread', 'videoId');
  const refused = charged(state, caller.clientId, state.costs.comment);
  if (refused) return refused;
  const comment: YoutubeComment = {
    threadId: `Ug${randomBytes(12).toString('base64url')}`,
    commentId: `Ug${randomBytes(12).toString('base64url')}`,
    videoId: video.id,
    channelId: video.channelId,
    authorChannelId: caller.channel.id,
    authorDisplayName: caller.channel.customUrl,
    textOriginal: text,
    publishedAt: state.clock.iso(),
  };
  state.comments.push(comment);
  return { status: 200, body: threadResource(comment) };
}

function listComments(world: GoogleWorld, state: YoutubeState, input: RouteInput): Reply {
  const caller = authenticate(world, input.headers.authorization, MANAGE_SCOPES);
  if (!caller.ok) return caller.reply;
  if (!input.query.part) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const video = input.query.videoId ? state.videos.get(input.query.videoId) : undefined;
  if (!video) return youtubeError(404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.commentThread', 'videoId');
  const size = Math.min(100, Math.max(1, Number(input.query.maxResults ?? 20) || 20));
  const offset = input.query.pageToken ? Number(Buffer.from(input.query.pageToken, 'base64url').toString('utf8').replace('offset:', '')) : 0;
  if (!Number.isInteger(offset) || offset < 0) return youtubeError(400, 'invalidPageToken', 'The pageToken parameter specifies an invalid page token.', 'youtube.parameter', 'pageToken');
  const refused = charged(state, caller.clientId, state.costs.list);
  if (refused) return refused;
  const all = state.comments.filter((c) => c.videoId === video.id).reverse();
  const items = all.slice(offset, offset + size).map(threadResource);
  const next = offset + size < all.length ? { nextPageToken: Buffer.from(`offset:${offset + size}`).toString('base64url') } : {};
  return { status: 200, body: { kind: 'youtube#commentThreadListResponse', etag: etag(all.length), ...next, pageInfo: { totalResults: items.length, resultsPerPage: size }, items } };
}

function threadResource(c: YoutubeComment): Record<string, unknown> {
  return {
    kind: 'youtube#commentThread',
    etag: etag(c.threadId),
    id: c.threadId,
    snippet: {
      channelId: c.channelId,
      videoId: c.videoId,
      topLevelComment: {
        kind: 'youtube#comment',
        etag: etag(c.commentId),
        id: c.commentId,
        snippet: {
          channelId: c.channelId, videoId: c.videoId, textDisplay: c.textOriginal, textOriginal: c.textOriginal,
          authorDisplayName: c.authorDisplayName, authorChannelId: { value: c.authorChannelId },
          canRate: true, viewerRating: 'none', likeCount: 0, publishedAt: c.publishedAt, updatedAt: c.publishedAt,
        },
      },
      canReply: true,
      totalReplyCount: 0,
      isPublic: true,
    },
  };
}

const etag = (seed: unknown) => Buffer.from(`etag:${String(seed)}:${Date.now()}`).toString('base64url').slice(0, 27);
