// /v1/queues: each social account's weekly posting slots, which `POST /v1/posts` fills with
// `"scheduledAt": "next-free-slot"` (posts/create.ts), and a preview of the upcoming ones.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { refuseUnknownFields } from '../../validation/strip.ts';
import { createQueue, deleteQueue, getQueue, listQueues, previewSlots, updateQueue } from '../../queues/manage.ts';
import {
  CreateQueueBodySchema, ListQueuesQuerySchema, ListQueuesResponseSchema, QueueSchema, SlotsQuerySchema, SlotsResponseSchema, UpdateQueueBodySchema,
  type CreateQueueBody, type ListQueuesQuery, type UpdateQueueBody,
} from '../../queues/schema.ts';
import { SCHEDULE_HORIZON_MS } from '../../posts/validate.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const One = Type.Object({ success: Type.Boolean(), data: QueueSchema });

export function queuesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: CreateQueueBody }>('/v1/queues', {
    schema: {
      summary: "Create a social account's posting queue",
      description: 'Weekly time slots (day of the week and local time HH:MM) in an IANA time zone. A post created with `"scheduledAt": "next-free-slot"` takes the earliest slot that no live post of its accounts holds, within the 30-day scheduling window. One queue per account; a queue belongs to its account\'s tenant.',
      tags: ['queues'],
      body: CreateQueueBodySchema,
      response: { 201: One, 400: ErrorSchema, 409: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, ['socialAccountId', 'timeZone', 'slots'], 'a field of a queue'),
    handler: async (request, reply) => reply.status(201).send({ success: true, data: await createQueue(ctx.db, request.owner.orgId, request.body) }),
  });

  app.get<{ Querystring: ListQueuesQuery }>('/v1/queues', {
    schema: {
      summary: "List the organization's posting queues",
      tags: ['queues'],
      querystring: ListQueuesQuerySchema,
      response: { 200: ListQueuesResponseSchema, 400: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...(await listQueues(ctx.db, request.owner.orgId, request.query)) }),
  });

  app.get<{ Params: { id: string } }>('/v1/queues/:id', {
    schema: { summary: 'Get a posting queue', tags: ['queues'], params: IdParams, response: { 200: One, 404: ErrorSchema } },
    handler: async (request) => ({ success: true, data: await getQueue(ctx.db, request.owner.orgId, request.params.id) }),
  });

  app.patch<{ Params: { id: string }; Body: UpdateQueueBody }>('/v1/queues/:id', {
    schema: {
      summary: "Change a queue's slots or time zone",
      description: 'Posts already scheduled keep their time; the new slots apply to the posts created from now on.',
      tags: ['queues'],
      params: IdParams,
      body: UpdateQueueBodySchema,
      response: { 200: One, 400: ErrorSchema, 404: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, ['timeZone', 'slots'], 'a field of a queue'),
    handler: async (request) => ({ success: true, data: await updateQueue(ctx.db, request.owner.orgId, request.params.id, request.body) }),
  });

  app.delete<{ Params: { id: string } }>('/v1/queues/:id', {
    schema: {
      summary: 'Delete a posting queue',
      description: 'Posts already scheduled in its slots keep their time.',
      tags: ['queues'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema },
    },
    handler: async (request) => {
      await deleteQueue(ctx.db, request.owner.orgId, request.params.id);
      return { success: true };
    },
  });

  app.get<{ Params: { id: string }; Querystring: { count: number } }>('/v1/queues/:id/slots', {
    schema: {
      summary: "Preview a queue's next slots and the posts in them",
      description: 'The next `count` slots from now, in time order, each with the posts of the account that stand at it (`postIds`, empty when free) and whether it lies within the 30-day scheduling window.',
      tags: ['queues'],
      params: IdParams,
      querystring: SlotsQuerySchema,
      response: { 200: SlotsResponseSchema, 400: ErrorSchema, 404: ErrorSchema },
    },
    handler: async (request) => ({
      success: true,
      data: await previewSlots(ctx.db, request.owner.orgId, request.params.id, request.query.count, new Date(), SCHEDULE_HORIZON_MS),
    }),
  });
}
