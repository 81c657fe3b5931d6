// Reading a post's replies (retrieve-and-manage-replies doc): GET /{media-id}/replies answers the
// direct replies only, GET /{media-id}/conversation every reply below it at any depth, flattened.
// Both take `fields`, `reverse` (default true: newest first) and cursor paging, need
// threads_read_replies, and read replies under posts of the caller only. Replies carry no author id
// and no like count: the author is `username`.
import type { Reply } from '../../shared/http.ts';
import { isReply, missingPermission, objectNotFound } from '../errors.ts';
import type { ThreadsMedia, ThreadsWorld } from '../state.ts';
import { paramsOf, versionProblem } from '../validate.ts';
import { callerOf } from './caller.ts';
import { mediaNodeFields, pick } from './nodes.ts';
import { pageOf } from './paging.ts';
import type { ThreadsRequest, ThreadsRoute } from './route.ts';

export function replyRoutes(world: ThreadsWorld): ThreadsRoute[] {
  return [{ method: 'GET', url: '/:version/:id/conversation', handler: (req) => mediaRepliesOf(world, req, true) }];
}

/** The fields a reply answers (Meta's Postman collection `fields_replies`): a media node's, and its author's picture and badge. */
function replyFields(world: ThreadsWorld, callerId: string): Record<string, (m: ThreadsMedia) => unknown> {
  const user = (m: ThreadsMedia) => world.users.get(m.userId);
  return {
    ...mediaNodeFields(world, callerId),
    profile_picture_url: (m) => user(m)?.profilePictureUrl ?? undefined,
    is_verified: (m) => user(m)?.isVerified ?? false,
  };
}

/** Every reply below `id`, in publishing order. */
function descendantsOf(world: ThreadsWorld, id: string): ThreadsMedia[] {
  const below = new Set([id]);
  const out: ThreadsMedia[] = [];
  for (const media of world.publishing.media) {
    if (media.replyToId !== undefined && below.has(media.replyToId)) {
      below.add(media.id);
      out.push(media);
    }
  }
  return out;
}

export function mediaRepliesOf(world: ThreadsWorld, req: ThreadsRequest, conversation: boolean): Reply {
  const params = paramsOf(req);
  const badVersion = versionProblem(req.params.version);
  if (badVersion) return badVersion;
  const caller = callerOf(world, req, params);
  if (isReply(caller)) return caller;
  const media = world.publishing.media.find((m) => m.id === req.params.id);
  const root = media && world.publishing.media.find((m) => m.id === media.rootId);
  // Replies are readable under the caller's own posts (the root's owner), not anyone else's.
  if (!media || (root ?? media).userId !== caller.userId) return objectNotFound(req.params.id!);
  if (!caller.scopes.includes('threads_read_replies')) return missingPermission('threads_read_replies');
  const found = conversation ? descendantsOf(world, media.id) : world.publishing.media.filter((m) => m.replyToId === media.id);
  const ordered = params.reverse === 'false' ? found : [...found].reverse();
  const fields = replyFields(world, caller.userId);
  return pageOf(ordered, params, (reply) => {
    const out = pick(reply, params.fields ?? 'id', fields, 'ThreadsMedia');
    return 'refused' in out ? out.refused : { ...out.values, id: reply.id };
  });
}
