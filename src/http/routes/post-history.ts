// A post's history: its publishing attempts per destination, and the deliveries of the events about
// it (post.published, post.error) to the org's webhooks — what a person reads when a post went wrong.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { publishAttempts } from '../../posts/history.ts';
import { getPost } from '../../posts/read.ts';
import { RequestError } from '../../core/errors.ts';
import { listPostAttempts } from '../../webhooks/queue.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';
import { AttemptSchema } from './webhooks.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Instant = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export function postHistoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { id: string } }>('/v1/posts/:id/attempts', {
    schema: {
      summary: "A post's publishing attempts",
      description: 'Every attempt to publish each destination, destination by destination, oldest first: when it ran, how it ended (`published`, `failed`, `retry` — tried again later —, `waiting` — a network\'s processing or the next upload step —, `unknown`, `superseded` — its worker died and another took over —, `skipped`; null while running) and the error.',
      tags: ['posts'],
      params: IdParams,
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          data: Type.Array(Type.Object({
            socialAccountId: Type.String(), network: Type.String(), username: Type.String(), attempt: Type.Integer(),
            startedAt: Type.String({ format: 'date-time' }), finishedAt: Instant,
            outcome: Type.Union([Type.String(), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]),
          })),
        }),
        404: ErrorSchema,
      },
    },
    handler: async (request) => ({ success: true, data: await publishAttempts(ctx.db, request.owner.orgId, request.params.id) }),
  });

  app.get<{ Params: { id: string } }>('/v1/posts/:id/deliveries', {
    schema: {
      summary: "Webhook deliveries of a post's events",
      description: 'Every attempt at delivering the events about this post (`post.published`, `post.error`) to the org\'s webhooks, newest first (at most 100), with the webhook; an attempt\'s `id` can be redelivered (POST /v1/webhooks/deliveries/{id}/redeliver).',
      tags: ['posts'],
      params: IdParams,
      response: {
        200: Type.Object({ success: Type.Boolean(), data: Type.Array(Type.Object({ ...AttemptSchema.properties, webhookId: Type.Integer(), webhookName: Type.String() })) }),
        404: ErrorSchema,
      },
    },
    handler: async (request) => {
      const post = await getPost(ctx.db, request.owner.orgId, request.params.id);
      if (!post) throw new RequestError(404, 'Post not found', { code: 'not_found' });
      return { success: true, data: await listPostAttempts(ctx.db, request.owner.orgId, post.id) };
    },
  });
}
