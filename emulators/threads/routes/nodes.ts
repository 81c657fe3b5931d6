// Reading what was created: GET /{container-id}?fields=status,error_message (the container's
// progress), GET /{media-id}?fields=… (a published post), GET /{user-id}/threads and
// GET /{user-id}/replies (the user's posts and replies, newest first, cursor-paged, `since`/`until`).
// GET /{media-id}/replies (a post's replies) shares its path with the user's replies: replies.ts.
import type { Reply } from '../../shared/http.ts';
import { statusOf } from '../containers.ts';
import { isReply, nonexistingField, objectNotFound } from '../errors.ts';
import type { ThreadsContainer, ThreadsMedia, ThreadsWorld } from '../state.ts';
import { listRangeProblem, paramsOf, timeParam, versionProblem } from '../validate.ts';
import { callerOf } from './caller.ts';
import { pageOf } from './paging.ts';
import { mediaRepliesOf } from './replies.ts';
import type { ThreadsRequest, ThreadsRoute } from './route.ts';

/** Meta's timestamp format: 2024-07-01T12:00:00+0000. */
export const metaTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

const MEDIA_FIELDS: Record<string, (m: ThreadsMedia) => unknown> = {
  id: (m) => m.id,
  permalink: (m) => m.permalink,
  shortcode: (m) => m.shortcode,
  text: (m) => m.text,
  timestamp: (m) => metaTime(m.publishedAt),
  media_type: (m) => m.mediaType,
  media_product_type: () => 'THREADS',
  username: (m) => m.username,
  owner: (m) => ({ id: m.userId }),
  is_reply: (m) => m.replyToId !== undefined,
  root_post: (m) => ({ id: m.rootId }),
  replied_to: (m) => (m.replyToId ? { id: m.replyToId } : undefined),
  media_url: (m) => (m.media.length === 1 ? m.media[0]!.url : undefined),
  // A carousel's items (ids of their own); other posts have none.
  children: (m) => (m.mediaType === 'CAROUSEL_ALBUM' ? { data: m.media.map((_, i) => ({ id: `${m.id}${String(i + 1).padStart(2, '0')}` })) } : undefined),
  is_quote_post: () => false,
};

/**
 * Fields the media-retrieval reference lists for GET /{threads-media-id} that the emulator keeps
 * nothing for: accepted and left out of the answer, as Graph leaves out a field without a value
 * (asking for them is no "nonexisting field").
 */
const UNMODELLED_MEDIA_FIELDS = ['thumbnail_url', 'link_attachment_url', 'quoted_post', 'reposted_post', 'gif_url', 'poll_attachment', 'topic_tag', 'is_spoiler_media', 'text_entities', 'text_attachment', 'location_id'];

/** Every field the media-retrieval reference lists, some depending on who asks. */
export function mediaNodeFields(world: ThreadsWorld, callerId: string): Record<string, (m: ThreadsMedia) => unknown> {
  return {
    ...MEDIA_FIELDS,
    alt_text: (m) => (m.media.length === 1 ? m.media[0]!.altText : undefined),
    has_replies: (m) => world.publishing.media.some((r) => r.replyToId === m.id),
    is_reply_owned_by_me: (m) => m.userId === callerId,
    hide_status: (m) => (m.hidden ? 'HIDDEN' : 'NOT_HUSHED'),
    reply_audience: (m) => m.replyControl.toUpperCase(),
    ...Object.fromEntries(UNMODELLED_MEDIA_FIELDS.map((field) => [field, () => undefined])),
  };
}

/** The requested fields of a node, or the refusal of an unknown one (a node's own `status` field is no Reply). */
export function pick<T>(node: T, fields: string, known: Record<string, (n: T) => unknown>, type: string): { values: Record<string, unknown> } | { refused: Reply } {
  const values: Record<string, unknown> = {};
  for (const field of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    const read = known[field];
    if (!read) return { refused: nonexistingField(field, type) };
    const value = read(node);
    if (value !== undefined) values[field] = value;
  }
  return { values };
}

export function nodeRoutes(world: ThreadsWorld): ThreadsRoute[] {
  return [
    { method: 'GET', url: '/:version/:id', handler: (req) => readNode(world, req) },
    { method: 'GET', url: '/:version/:id/threads', handler: (req) => listOf(world, req, false) },
    // A media id: that post's top-level replies; else the user's own replies.
    { method: 'GET', url: '/:version/:id/replies', handler: (req) => (world.publishing.media.some((m) => m.id === req.params.id) ? mediaRepliesOf(world, req, false) : listOf(world, req, true)) },
  ];
}

function readNode(world: ThreadsWorld, req: ThreadsRequest): Reply {
  const params = paramsOf(req);
  const id = req.params.id!;
  const badVersion = versionProblem(req.params.version);
  if (badVersion) return badVersion;
  const caller = callerOf(world, req, params);
  if (isReply(caller)) return caller;
  const container = world.publishing.containers.get(id);
  if (container && container.userId === caller.userId) return readContainer(world, container, params.fields ?? 'id');
  const media = world.publishing.media.find((m) => m.id === id && m.userId === caller.userId);
  if (!media) return objectNotFound(id);
  const out = pick(media, params.fields ?? 'id', mediaNodeFields(world, caller.userId), 'ThreadsMedia');
  if ('refused' in out) return out.refused;
  return { status: 200, body: { ...out.values, id: media.id } };
}

function readContainer(world: ThreadsWorld, container: ThreadsContainer, fields: string): Reply {
  const { status, errorMessage } = statusOf(world, container);
  const out = pick({ status, errorMessage }, fields, {
    id: () => container.id,
    status: (s) => s.status,
    error_message: (s) => s.errorMessage,
  }, 'ThreadsMediaContainer');
  if ('refused' in out) return out.refused;
  return { status: 200, body: { ...out.values, id: container.id } };
}

function listOf(world: ThreadsWorld, req: ThreadsRequest, replies: boolean): Reply {
  const params = paramsOf(req);
  const badVersion = versionProblem(req.params.version);
  if (badVersion) return badVersion;
  const caller = callerOf(world, req, params, req.params.id);
  if (isReply(caller)) return caller;
  const badRange = listRangeProblem(params, world.clock.now());
  if (badRange) return badRange;
  const since = timeParam(params.since) ?? -Infinity;
  const until = timeParam(params.until) ?? Infinity;
  const all = world.publishing.media
    .filter((m) => m.userId === caller.userId && (m.replyToId !== undefined) === replies && m.publishedAt >= since && m.publishedAt <= until)
    .reverse()
    // Seeded posts (addPost) may be older than ones published before them; a stable sort keeps publishing order among equal times.
    .sort((a, b) => b.publishedAt - a.publishedAt);
  const fields = mediaNodeFields(world, caller.userId);
  return pageOf(all, params, (media) => {
    const out = pick(media, params.fields ?? 'id', fields, 'ThreadsMedia');
    return 'refused' in out ? out.refused : { ...out.values, id: media.id };
  });
}
