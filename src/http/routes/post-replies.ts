// /v1/posts/:id/replies: a published post's comments as the spec's Reply records, and answering them.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { listReplies, postReply, type ReplyCache, MAX_COMMENTS, REPLIES_CACHE_MS, type ReplyListQuery } from '../../engagement/replies.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

/** The spec's Reply record, for the description (the list may also carry the deprecated shapes). */
const REPLY_FIELDS = '`id`, `author` (the network\'s id of the author, a URN where the network uses them), `author_name` (null when unavailable), `author_username`, `author_avatar_url`, `author_profile_url`, `text`, `created_at`, `like_count`, `platform_specific`, and `replies` (Reply records) only with include_replies=true, as deep as the network nests them (one tier on networks with one level of answers)';

const listQuery = (withLegacy: string) => Type.Object({
  network: Type.Optional(Type.String({ description: 'The network of the destination to read (needed when the post went to several)' })),
  username: Type.Optional(Type.String({ description: 'The account, when two accounts on one network received the post' })),
  include_replies: Type.Optional(Type.Boolean({ default: false })),
  resolve_author_names: Type.Optional(Type.Boolean({ default: false, description: 'Where the network names commenters by URN only: look them up (organizations resolve; members mostly cannot, and keep author_name null). Profiles are cached at most 24 h' })),
  legacy: Type.Optional(Type.Boolean({ default: false, deprecated: true, description: `Deprecated: the network's own reply shape, where the spec names one (${withLegacy}), instead of Reply records` })),
});

const CreateBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: 10_000 }),
  account_username: Type.Optional(Type.String({ description: 'The account that answers, when the post went to several' })),
  parent_comment_id: Type.Optional(Type.String({ minLength: 1, description: 'Answer this comment (an `id` from GET …/replies, or commentId of comment.received) instead of the post' })),
  network: Type.Optional(Type.String()),
});

/** `cache`: the lists read recently, shared with the sandbox's comments (which forget a destination's). */
export function postRepliesRoutes(app: FastifyInstance, ctx: AppContext, cache: ReplyCache): void {
  const userFetch = userFetchFor(ctx.config.allowLoopbackFetch);
  const deps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch, cache };
  const withLegacy = ctx.networks.all.filter((n) => ctx.networks.capabilities(n.id).comments?.legacy).map((n) => n.id).join(', ') || 'none yet';
  const withoutComments = ctx.networks.all.filter((n) => !ctx.networks.capabilities(n.id).comments).map((n) => n.id).join(', ') || 'none';

  app.get<{ Params: { id: string }; Querystring: ReplyListQuery }>('/v1/posts/:id/replies', {
    schema: {
      summary: "A post's comments, read from the network",
      description: `Reply records of one destination, read from its network with the account's token, newest pages first up to ${MAX_COMMENTS} top-level comments, kept ${REPLIES_CACHE_MS / 1000} s (polling more often costs the network nothing). Networks whose posts have no comments an app can read (${withoutComments}): 400 \`replies_not_supported\`. Several destinations and no network/username to choose: 400 \`destination_ambiguous\` naming the choices.`,
      tags: ['posts'],
      params: IdParams,
      querystring: listQuery(withLegacy),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(Type.Unknown({ description: `Reply records: ${REPLY_FIELDS}. With legacy=true, the network's own shape` })) }), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 502: ErrorSchema },
    },
    handler: async (request) => ({ success: true, data: await listReplies(deps, request.owner.orgId, request.params.id, request.query) }),
  });

  app.post<{ Params: { id: string }; Body: { content: string; account_username?: string; parent_comment_id?: string; network?: string } }>('/v1/posts/:id/replies', {
    schema: {
      summary: 'Comment on a post, or answer one of its comments',
      description: 'Posts `content` as the account that published the post: a comment on it, or with `parent_comment_id` an answer to that comment. Comments by the account itself never trigger `comment.received`.',
      tags: ['posts'],
      params: IdParams,
      body: CreateBody,
      response: { 200: Type.Object({ success: Type.Boolean(), reply_id: Type.String() }), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 502: ErrorSchema },
    },
    handler: async (request) => {
      if (!request.body.content.trim()) throw validationError([{ field: 'content', message: 'must not be blank' }]);
      return { success: true, reply_id: await postReply(deps, request.owner.orgId, request.params.id, request.body) };
    },
  });
}
