// /v1/recurrences: a post that repeats (an interval or a weekly rule, a count or an end), each
// occurrence created as its own post by the recurrence runner (recurrences/runner.ts).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { occurrenceFetchPolicy } from '../../recurrences/runner.ts';
import { createRecurrence, deleteRecurrence, getRecurrence, listRecurrences, updateRecurrence } from '../../recurrences/manage.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Instant = Type.String({ format: 'date-time' });
const OccurrenceSchema = Type.Object({
  index: Type.Integer({ description: '0 for the first occurrence' }),
  scheduledAt: Instant,
  postId: Nullable(Type.String({ description: "the occurrence's post; null when it was refused" })),
  variation: Nullable(Type.Integer({ description: 'which of `variations` it used; null: the body\'s own content' })),
  refused: Nullable(Type.String({ description: 'why the create path refused the occurrence (no post was made)' })),
});
// The post body's own fields (accounts as ids, content or containers, network blocks) are kept as sent: additional properties.
const RecurrenceSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('completed')]),
  every: Type.Optional(Type.Object({ days: Type.Optional(Type.Integer()), hours: Type.Optional(Type.Integer()) })),
  weekly: Type.Optional(Type.Object({ days: Type.Array(Type.String()), time: Type.String(), timeZone: Type.String() })),
  startAt: Instant,
  count: Nullable(Type.Integer()),
  until: Nullable(Instant),
  variations: Type.Array(Type.Unknown()),
  nextOccurrenceAt: Nullable(Instant),
  nextOccurrenceIndex: Nullable(Type.Integer()),
  postsCreated: Type.Integer(),
  occurrencesSkipped: Type.Integer(),
  createdAt: Instant,
  updatedAt: Instant,
  occurrences: Type.Optional(Type.Array(OccurrenceSchema, { description: 'one recurrence: its latest 100 occurrences' })),
}, { additionalProperties: true, description: 'The post body (accounts as ids), the rule, and where the recurrence stands' });
const One = Type.Object({ success: Type.Boolean(), warnings: Type.Optional(Type.Array(Type.String())), data: RecurrenceSchema });

const CREATE_DESCRIPTION = 'The body of `POST /v1/posts` (accounts, content or containers, network blocks; no `scheduledAt`, no `isDraft`) and a rule: '
  + '`every` ({"days": n, "hours": n}, at least 1 hour, elapsed time from `startAt`) or `weekly` ({"days": ["monday", ...], "time": "HH:MM", "timeZone": IANA name}: '
  + 'the local time holds across daylight-saving changes, a time that does not exist that day is skipped). `startAt` (default now), `count` (1-1000) and/or `until`. '
  + '`variations`: alternative contents ({"content"} or {"containers"}), taken in order after the body\'s own, cycling, one per occurrence: networks that refuse repeated text (X, LinkedIn) need them, '
  + 'otherwise their destination of a repeated occurrence fails with the network\'s reason. Each occurrence is an ordinary post (GET /v1/posts), created by the worker one occurrence ahead '
  + '(the first at once, each next one when the one before is due, never more than 30 days ahead), judged by the create path then (approval included). '
  + 'An occurrence reached more than an hour late (paused, no worker running) is skipped.';

export function recurrencesRoutes(app: FastifyInstance, ctx: AppContext): void {
  // A recurrence's media URLs are judged as a post's are, now and again at each occurrence.
  const fetchPolicy = occurrenceFetchPolicy(ctx.config);

  app.post('/v1/recurrences', {
    schema: {
      summary: 'Create a recurring post',
      description: CREATE_DESCRIPTION,
      tags: ['recurrences'],
      body: Type.Unknown({ description: 'A post body plus every/weekly, startAt, count, until, variations' }),
      response: { 201: One, 400: ErrorSchema },
    },
    // Judged by recurrences/validate.ts: the post body by the posts' own parser, the rule field by field.
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request, reply) => {
      const { recurrence, warnings } = await createRecurrence(ctx.db, request.owner.orgId, request.body, new Date(), fetchPolicy);
      return reply.status(201).send({ success: true, ...(warnings.length ? { warnings } : {}), data: recurrence });
    },
  });

  app.get<{ Querystring: { limit?: number; offset?: number } }>('/v1/recurrences', {
    schema: {
      summary: "List the organization's recurring posts",
      description: 'Newest first.',
      tags: ['recurrences'],
      querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), offset: Type.Optional(Type.Integer({ minimum: 0 })) }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(RecurrenceSchema), total: Type.Integer() }), 400: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...(await listRecurrences(ctx.db, request.owner.orgId, request.query)) }),
  });

  app.get<{ Params: { id: string } }>('/v1/recurrences/:id', {
    schema: { summary: 'Get a recurring post and its latest occurrences', tags: ['recurrences'], params: IdParams, response: { 200: One, 404: ErrorSchema } },
    handler: async (request) => ({ success: true, data: await getRecurrence(ctx.db, request.owner.orgId, request.params.id) }),
  });

  app.patch<{ Params: { id: string } }>('/v1/recurrences/:id', {
    schema: {
      summary: 'Pause, resume or change a recurring post',
      description: '`{"status": "paused"}` stops new occurrences; one already created stays a scheduled post (cancel it with DELETE /v1/posts/:id). `{"status": "active"}` resumes, skipping the occurrences whose time passed meanwhile. `content` or `containers`, a network\'s block (`x`, …) and `variations` change the content of the occurrences to come, judged as on create (a 400 names what a network would refuse); an occurrence already created keeps its own. The rule and the accounts cannot change: create another recurrence.',
      tags: ['recurrences'],
      params: IdParams,
      body: Type.Unknown({ description: '{"status": "paused" | "active", "content" | "containers", "<network>": {...}, "variations": [...]}, each optional' }),
      response: { 200: One, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request) => {
      if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
        throw validationError([{ field: '(body)', message: 'must be a JSON object such as {"status": "paused"}' }]);
      }
      return { success: true, data: await updateRecurrence(ctx.db, request.owner.orgId, request.params.id, request.body as Record<string, unknown>, new Date(), fetchPolicy) };
    },
  });

  app.delete<{ Params: { id: string } }>('/v1/recurrences/:id', {
    schema: {
      summary: 'Delete a recurring post',
      description: 'No occurrence is created any more; the occurrences created that have not started publishing are cancelled (`cancelledPostIds`). Published occurrences stay, on the networks and as posts in Crier.',
      tags: ['recurrences'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), cancelledPostIds: Type.Array(Type.String()) }), 404: ErrorSchema, 409: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...(await deleteRecurrence(ctx.db, request.owner.orgId, request.params.id)) }),
  });
}
