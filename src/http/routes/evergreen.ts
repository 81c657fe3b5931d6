// /v1/evergreen-collections: a pool of posts (items) re-shared on the accounts' queue slots or on a
// recurrence rule, an item never reused within `minGapDays`, each re-share its own post, created by the
// evergreen runner (evergreen/runner.ts). The items are under /items.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { occurrenceFetchPolicy } from '../../recurrences/runner.ts';
import {
  addItem, createCollection, deleteCollection, getCollection, listCollections, listItems, removeItem, updateCollection,
} from '../../evergreen/manage.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, options: { description?: string } = {}) => Type.Union([schema, Type.Null()], options);
const Instant = Type.String({ format: 'date-time' });

// The item's post fields (content or containers, network blocks) are kept as sent: additional properties.
const ItemSchema = Type.Object({
  id: Type.String(),
  position: Type.Integer({ description: 'the order items were added; ties between items used equally long ago go to the lower' }),
  variations: Type.Array(Type.Unknown(), { description: 'alternative contents, cycled after the item\'s own' }),
  lastUsedAt: Nullable(Instant),
  timesUsed: Type.Integer({ description: 'posts created from this item' }),
  createdAt: Instant,
}, { additionalProperties: true, description: 'A post body (content or containers, network blocks) and its use' });

const TurnSchema = Type.Object({
  turn: Type.Integer({ description: '0 for the collection\'s first' }),
  itemId: Nullable(Type.String({ description: 'null once the item was removed' })),
  scheduledAt: Instant,
  postId: Nullable(Type.String({ description: 'the post created; null when the create path refused it' })),
  variation: Nullable(Type.Integer({ description: "0: the item's own content, n: its n-th variation; null when refused" })),
  refused: Nullable(Type.String({ description: 'why the create path refused the post (none was made)' })),
  createdAt: Instant,
});

const CollectionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
  accounts: Type.Array(Type.String(), { description: 'the accounts every item goes to, as ids' }),
  queue: Type.Optional(Type.Boolean({ description: "true: each post takes the accounts' next free queue slot" })),
  every: Type.Optional(Type.Object({ days: Type.Optional(Type.Integer()), hours: Type.Optional(Type.Integer()) })),
  weekly: Type.Optional(Type.Object({ days: Type.Array(Type.String()), time: Type.String(), timeZone: Type.String() })),
  startAt: Nullable(Instant),
  minGapDays: Type.Integer(),
  nextRunAt: Nullable(Instant, { description: 'when the runner creates the next post (one ahead: when the one before falls due); null while paused or waiting for an item' }),
  nextOccurrenceAt: Nullable(Instant, { description: "a rule's next occurrence to fill; null for a queue collection (its post takes the next free slot then)" }),
  waiting: Nullable(Type.String({ description: 'why no post is being created (no item eligible yet, no free queue slot); null when none' })),
  turns: Type.Integer({ description: 'posts created, or refused with a reason, so far' }),
  occurrencesSkipped: Type.Integer({ description: "a rule's occurrences passed over: more than an hour late, or no item eligible" }),
  itemCount: Type.Integer(),
  createdAt: Instant,
  updatedAt: Instant,
  items: Type.Optional(Type.Array(ItemSchema, { description: 'one collection: its items, by position' })),
  latestPosts: Type.Optional(Type.Array(TurnSchema, { description: 'one collection: its latest 20 turns, newest first' })),
}, { description: 'An evergreen collection: its accounts, schedule and gap, and where it stands' });

const One = Type.Object({ success: Type.Boolean(), warnings: Type.Optional(Type.Array(Type.String())), data: CollectionSchema });
const OneItem = Type.Object({ success: Type.Boolean(), warnings: Type.Optional(Type.Array(Type.String())), data: ItemSchema });
const ItemParams = Type.Object({ id: Type.String({ description: 'the collection' }), itemId: Type.String({ description: 'the item' }) });

const CREATE_DESCRIPTION = '`name`, `accounts` (as a post\'s), a schedule — exactly one of `"queue": true` (each post takes the accounts\' next free queue slot, '
  + 'as `scheduledAt: "next-free-slot"`), `every` or `weekly` (the rules of POST /v1/recurrences, from `startAt`, default now) — `minGapDays` (0-3650, default 30: '
  + 'an item is not reused before that many days have passed since its last post), `status` and `items` (up to 100 here; more with POST .../items). '
  + 'An item is a post body without accounts (content or containers, network blocks) and optional `variations` ({"content"} or {"containers"}), '
  + 'taken in turn after its own content: X and LinkedIn refuse repeated text, so without variations their destination of a repeated item fails with the network\'s reason. '
  + 'Each item is judged now as the post it will become. The worker creates one post ahead (the first at once, each next one when the one before falls due), '
  + 'from the item used longest ago whose gap has passed (ties by position); when none is eligible, `waiting` says why.';

export function evergreenRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The items' media URLs are judged as a post's are, now and again at each re-share.
  const fetchPolicy = occurrenceFetchPolicy(ctx.config);
  const unvalidated = () => (data: unknown) => ({ value: data });

  app.post('/v1/evergreen-collections', {
    schema: {
      summary: 'Create an evergreen collection',
      description: CREATE_DESCRIPTION,
      tags: ['evergreen'],
      body: Type.Unknown({ description: 'name, accounts, queue/every/weekly, startAt, minGapDays, status, items' }),
      response: { 201: One, 400: ErrorSchema },
    },
    // Judged by evergreen/validate.ts: each item by the posts' own parser, the rest field by field.
    validatorCompiler: unvalidated,
    handler: async (request, reply) => {
      const { data, warnings } = await createCollection(ctx.db, request.owner.orgId, request.body, new Date(), fetchPolicy);
      return reply.status(201).send({ success: true, ...(warnings.length ? { warnings } : {}), data });
    },
  });

  app.get<{ Querystring: { limit?: number; offset?: number } }>('/v1/evergreen-collections', {
    schema: {
      summary: "List the organization's evergreen collections",
      description: 'Newest first; each with its schedule, next run and item count (GET one for its items and latest posts).',
      tags: ['evergreen'],
      querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), offset: Type.Optional(Type.Integer({ minimum: 0 })) }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(CollectionSchema), total: Type.Integer() }), 400: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...(await listCollections(ctx.db, request.owner.orgId, request.query)) }),
  });

  app.get<{ Params: { id: string } }>('/v1/evergreen-collections/:id', {
    schema: {
      summary: 'Get an evergreen collection, its items and its latest posts',
      description: "Each item's `lastUsedAt` and `timesUsed`, the collection's `nextRunAt` and `waiting`, and its latest 20 turns (`latestPosts`).",
      tags: ['evergreen'],
      params: IdParams,
      response: { 200: One, 404: ErrorSchema },
    },
    handler: async (request) => ({ success: true, data: await getCollection(ctx.db, request.owner.orgId, request.params.id) }),
  });

  app.patch<{ Params: { id: string } }>('/v1/evergreen-collections/:id', {
    schema: {
      summary: "Rename, pause, resume or change an evergreen collection's gap",
      description: 'Body: any of `name`, `minGapDays`, `status` ("paused" or "active"). Pausing stops new posts; one already created stays a scheduled post (cancel it with DELETE /v1/posts/:id). '
        + 'Accounts and schedule cannot change: create another collection.',
      tags: ['evergreen'],
      params: IdParams,
      body: Type.Unknown({ description: '{"name"?, "minGapDays"?, "status"?}' }),
      response: { 200: One, 400: ErrorSchema, 404: ErrorSchema },
    },
    validatorCompiler: unvalidated,
    handler: async (request) => ({ success: true, data: await updateCollection(ctx.db, request.owner.orgId, request.params.id, request.body) }),
  });

  app.delete<{ Params: { id: string } }>('/v1/evergreen-collections/:id', {
    schema: {
      summary: 'Delete an evergreen collection',
      description: 'No post is created any more; the posts it created that have not started publishing are cancelled (`cancelledPostIds`). Published ones stay, on the networks and as posts in Crier.',
      tags: ['evergreen'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), cancelledPostIds: Type.Array(Type.String()) }), 404: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...(await deleteCollection(ctx.db, request.owner.orgId, request.params.id)) }),
  });

  app.post<{ Params: { id: string } }>('/v1/evergreen-collections/:id/items', {
    schema: {
      summary: 'Add an item to an evergreen collection',
      description: 'A post body without accounts (content or containers, network blocks) and optional `variations`, judged as the post it will become for the collection\'s accounts. It goes last in position; never used, it is the next one eligible.',
      tags: ['evergreen'],
      params: IdParams,
      body: Type.Unknown({ description: 'content or containers, network blocks, variations' }),
      response: { 201: OneItem, 400: ErrorSchema, 404: ErrorSchema },
    },
    validatorCompiler: unvalidated,
    handler: async (request, reply) => {
      const { data, warnings } = await addItem(ctx.db, request.owner.orgId, request.params.id, request.body, new Date(), fetchPolicy);
      return reply.status(201).send({ success: true, ...(warnings.length ? { warnings } : {}), data });
    },
  });

  app.get<{ Params: { id: string } }>('/v1/evergreen-collections/:id/items', {
    schema: {
      summary: "List an evergreen collection's items",
      description: 'By position, each with `lastUsedAt` and `timesUsed`.',
      tags: ['evergreen'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(ItemSchema) }), 404: ErrorSchema },
    },
    handler: async (request) => ({ success: true, data: await listItems(ctx.db, request.owner.orgId, request.params.id) }),
  });

  app.delete<{ Params: { id: string; itemId: string } }>('/v1/evergreen-collections/:id/items/:itemId', {
    schema: {
      summary: 'Remove an item from an evergreen collection',
      description: 'It is never used again; a post already created from it stays an ordinary post.',
      tags: ['evergreen'],
      params: ItemParams,
      response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema },
    },
    handler: async (request) => {
      await removeItem(ctx.db, request.owner.orgId, request.params.id, request.params.itemId);
      return { success: true };
    },
  });
}
