// Reading what was created: GET /{container-id}?fields=status,error_message (the container's
// progress), GET /{media-id}?fields=… (a published post), GET /{user-id}/threads and
// GET /{user-id}/replies (the user's posts and replies, newest first, cursor-paged, `since`/`until`).
import type { Reply } from '../../shared/http.ts';
import { statusOf } from '../containers.ts';
import { metaError } from '../errors.ts';
import type { ThreadsContainer, ThreadsMedia, ThreadsWorld } from '../world.ts';
import { callerOf, isReply, objectNotFound, paramsOf } from './params.ts';
import type { ThreadsRequest, ThreadsRoute } from './route.ts';

const invalidField = (field: string, node: string): Reply => metaError(`(#100) Tried accessing nonexisting field (${field}) on node type (${node})`, 100, undefined, 400, 'THApiException');

/** Meta's timestamp format: 2024-07-01T12:00:00+0000. */
const metaTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

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
};

/** The requested fields of a node, or the refusal of an unknown one (a node's own `status` field is no Reply). */
function pick<T>(node: T, fields: string, known: Record<string, (n: T) => unknown>, type: string): { values: Record<string, unknown> } | { refused: Reply } {
  const values: Record<string, unknown> = {};
  for (const field of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    const read = known[field];
    if (!read) return { refused: invalidField(field, type) };
    const value = read(node);
    if (value !== undefined) values[field] = value;
  }
  return { values };
}

export function nodeRoutes(world: ThreadsWorld): ThreadsRoute[] {
  return [
    { method: 'GET', url: '/:version/:id', handler: (req) => readNode(world, req) },
    { method: 'GET', url: '/:version/:id/threads', handler: (req) => listOf(world, req, false) },
    { method: 'GET', url: '/:version/:id/replies', handler: (req) => listOf(world, req, true) },
  ];
}

function readNode(world: ThreadsWorld, req: ThreadsRequest): Reply {
  const params = paramsOf(req);
  const id = req.params.id!;
  if (!/^v\d+\.\d+$/.test(req.params.version ?? '')) return objectNotFound(req.params.version ?? '');
  const caller = callerOf(world, req, params);
  if (isReply(caller)) return caller;
  const container = world.publishing.containers.get(id);
  if (container && container.userId === caller.userId) return readContainer(world, container, params.fields ?? 'id');
  const media = world.publishing.media.find((m) => m.id === id && m.userId === caller.userId);
  if (!media) return objectNotFound(id);
  const out = pick(media, params.fields ?? 'id', MEDIA_FIELDS, 'ThreadsMedia');
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

/** Epoch seconds or a date string, as Graph's since/until take them. */
function timeParam(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? date : undefined;
}

function listOf(world: ThreadsWorld, req: ThreadsRequest, replies: boolean): Reply {
  const params = paramsOf(req);
  if (!/^v\d+\.\d+$/.test(req.params.version ?? '')) return objectNotFound(req.params.version ?? '');
  const caller = callerOf(world, req, params, req.params.id);
  if (isReply(caller)) return caller;
  const since = timeParam(params.since) ?? -Infinity;
  const until = timeParam(params.until) ?? Infinity;
  const all = world.publishing.media
    .filter((m) => m.userId === caller.userId && (m.replyToId !== undefined) === replies && m.publishedAt >= since && m.publishedAt <= until)
    .reverse();
  const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
  const start = params.after ? Number(Buffer.from(params.after, 'base64url').toString('utf8')) || 0 : 0;
  const page = all.slice(start, start + limit);
  const data: Record<string, unknown>[] = [];
  for (const media of page) {
    const out = pick(media, params.fields ?? 'id', MEDIA_FIELDS, 'ThreadsMedia');
    if ('refused' in out) return out.refused;
    data.push({ ...out.values, id: media.id });
  }
  const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
  const more = start + limit < all.length;
  return { status: 200, body: { data, paging: { cursors: { before: cursor(start), after: cursor(start + page.length) }, ...(more ? { next: `?after=${cursor(start + page.length)}` } : {}) } } };
}
