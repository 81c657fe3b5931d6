// POST /v1/sandbox/posts/:id/comments, in sandbox mode only: someone else comments on a published
// post on its emulator, so a newcomer can try GET/POST …/replies, comment.received (on networks that
// push comments) and the dashboard's replies with no network account.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { addSandboxComment, type ReplyCache } from '../../engagement/replies.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

/** A made-up commenter's handle: what every emulator takes as a username. */
export const SANDBOX_HANDLE = '^[A-Za-z0-9_]{1,30}$';

const Body = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 2_000 }),
  network: Type.Optional(Type.String({ description: 'The destination to comment on, when the post went to several networks' })),
  username: Type.Optional(Type.String({ description: 'The account, when two accounts on one network received the post' })),
  parent_comment_id: Type.Optional(Type.String({ minLength: 1, description: 'Answer this comment (an `id` from GET …/replies) instead of the post' })),
  author: Type.String({ pattern: SANDBOX_HANDLE, default: 'sandbox_fan', description: 'The commenter (made up; created on the emulator)' }),
});

export function sandboxCommentsRoutes(app: FastifyInstance, ctx: AppContext, cache: ReplyCache): void {
  const sandbox = ctx.sandbox;
  if (!sandbox) return;
  const deps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch: userFetchFor(ctx.config.allowLoopbackFetch), cache };
  const pushing = ctx.networks.all.filter((n) => ctx.networks.capabilities(n.id).inbound).map((n) => n.label).join(', ') || 'none';

  app.post<{ Params: { id: string }; Body: { text: string; network?: string; username?: string; parent_comment_id?: string; author: string } }>('/v1/sandbox/posts/:id/comments', {
    schema: {
      summary: 'Sandbox: someone comments on a published post',
      description: `Adds a comment by \`author\` on the destination's emulator (sandbox mode only), or with \`parent_comment_id\` an answer to a comment. GET /v1/posts/:id/replies shows it at once; where the network pushes comments (${pushing}) it also arrives as a \`comment.received\` event. Destinations are chosen as for the replies routes.`,
      tags: ['sandbox'],
      params: IdParams,
      body: Body,
      response: {
        201: Type.Object({ success: Type.Boolean(), network: Type.String(), username: Type.String(), comment_id: Type.String() }),
        400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema,
      },
    },
    handler: async (request, reply) => {
      if (!request.body.text.trim()) throw validationError([{ field: 'text', message: 'must not be blank' }]);
      const { destination, commentId } = await addSandboxComment(deps, sandbox, request.owner.orgId, request.params.id, request.body);
      return reply.code(201).send({ success: true, network: destination.network, username: destination.username, comment_id: commentId });
    },
  });
}
