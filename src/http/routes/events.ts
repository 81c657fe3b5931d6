// /v1/events: the org's event feed, the events its webhooks carry, read with a cursor (for a client
// that polls instead of receiving webhooks, or that reconciles what its receiver got).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, parseFeedQuery, readFeed, type FeedQuery } from '../../webhooks/feed.ts';
import { EVENT_TYPES } from '../../webhooks/outbox.ts';
import type { AppContext } from '../context.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const FeedEventSchema = Type.Object({
  id: Type.String({ description: 'the event id: the webhook body `id` and the `webhook-id` header of its deliveries' }),
  event: Type.String({ enum: [...EVENT_TYPES] }),
  timestamp: Type.String({ format: 'date-time', description: 'when the event occurred, as in the webhook body' }),
  data: Type.Unknown({ description: "the event's data, exactly as its webhook deliveries carry it" }),
  cursor: Type.String({ description: 'pass it as `after` to read the events that follow this one' }),
});

export function eventsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: FeedQuery }>('/v1/events', {
    schema: {
      operationId: 'listEvents',
      summary: "The organization's events, oldest first after a cursor",
      description: 'The events webhooks deliver (whether or not a webhook subscribed to them), with the same `id`, `event`, `timestamp` and `data` as the delivery body, kept as long as the delivery log keeps them. Pass the page\'s `next` as `after` to continue: an event that commits later never appears before one already read, so following `next` never skips an event. An event appears once every database transaction older than the one that wrote it has ended.',
      tags: ['webhooks'],
      querystring: Type.Object({
        after: Type.Optional(Type.String({ description: 'an opaque cursor: an event\'s `cursor` or a page\'s `next`; omitted: from the oldest event kept' })),
        types: Type.Optional(Type.String({ description: `comma-separated event types to list (${EVENT_TYPES.join(', ')}); omitted: all` })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: FEED_MAX_LIMIT, default: FEED_DEFAULT_LIMIT, description: 'events per page' })),
      }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          data: Type.Array(FeedEventSchema),
          next: Type.Union([Type.String(), Type.Null()], { description: 'the cursor to pass as `after` next: the last event\'s, or `after` itself when no event followed it; null when there is no event yet' }),
          hasMore: Type.Boolean({ description: 'more events can be read now after `next`' }),
        }),
        400: ErrorSchema,
      },
    },
    // feed.ts judges the query, so every bad field is named at once (the schema above documents it).
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request) => ({ success: true, ...(await readFeed(ctx.db, request.owner.orgId, parseFeedQuery(request.query ?? {}))) }),
  });
}
