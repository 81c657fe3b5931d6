// /v1/webhooks: the org's webhook endpoints, their Test action, their delivery log and redelivery.
import { Type, type TSchema } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { RequestError, validationError } from '../../core/errors.ts';
import { refuseUnknownFields } from '../../validation/strip.ts';
import { listAttempts, redeliver, type AttemptPage } from '../../webhooks/queue.ts';
import { sandboxInboxUrl } from '../../sandbox/inbox.ts';
import { EVENT_TYPES, emitTestEvent } from '../../webhooks/outbox.ts';
import { SECRET_MAX_LENGTH } from '../../webhooks/signing.ts';
import { MAX_CUSTOM_HEADERS, createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook, type StoreDeps, type WebhookInput } from '../../webhooks/store.ts';
import { parseNumericId } from '../../core/ids.ts';
import { PaginationQuery, type Page } from '../../validation/pagination.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
/** `type: [x, 'null']` rather than anyOf: with type coercion on, anyOf would turn null into "" and "" into null. */
const Nullable = (schema: Record<string, unknown>) => Type.Unsafe<unknown>({ ...schema, type: [schema.type as string, 'null'] });

const EventTypeSchema = Type.String({ enum: [...EVENT_TYPES] });
const HeadersSchema = { type: 'object', additionalProperties: { type: 'string' }, maxProperties: MAX_CUSTOM_HEADERS, description: 'custom headers sent with every delivery; cannot replace Content-Type, User-Agent, X-Service-Signature or webhook-*' };
const SecretSchema = { type: 'string', minLength: 1, maxLength: SECRET_MAX_LENGTH, description: 'signing secret: 16 to 256 characters, or a Standard Webhooks whsec_ secret. Never returned.' };

const WebhookSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  headers: Type.Record(Type.String(), Type.String()),
  enabled: Type.Boolean(),
  hasSecret: Type.Boolean({ description: 'a signing secret is set (it is never returned)' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  secret: Type.Optional(Type.String({ description: 'only in the response that generated it (generateSecret): shown this once' })),
});

export const AttemptSchema = Type.Object({
  id: Type.Integer({ description: 'pass it to POST /v1/webhooks/deliveries/:id/redeliver' }),
  eventId: Type.String({ description: 'the event id: the envelope `id` and the `webhook-id` header' }),
  event: Type.String(),
  attempt: Type.Integer({ description: '1 for the first attempt of this event to this endpoint' }),
  redelivery: Type.Boolean(),
  startedAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  succeeded: Type.Union([Type.Boolean(), Type.Null()]),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Union([Type.Integer(), Type.Null()]),
  errorKind: Type.Union([Type.String({ enum: ['timeout', 'connect', 'redirect', 'http_status', 'blocked', 'too_large', 'interrupted', 'internal'] }), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  responseBody: Type.Union([Type.String({ description: 'the first 1 KB' }), Type.Null()]),
  deliveryState: Type.String({ enum: ['pending', 'delivered', 'failed', 'cancelled'] }),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const One = Type.Object({ success: Type.Boolean(), data: WebhookSchema });
const Queued = Type.Object({ success: Type.Boolean(), data: Type.Object({ eventId: Type.String(), webhookId: Type.Integer() }) });

const FIELDS = ['name', 'url', 'secret', 'generateSecret', 'headers', 'events', 'enabled'];

function bodySchema(creating: boolean): TSchema {
  const required = (schema: TSchema) => (creating ? schema : Type.Optional(schema));
  return Type.Object({
    name: required(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'a name with at least one visible character' })),
    url: required(Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS URL of the receiver; checked by the SSRF guard when saved and at every delivery' })),
    secret: Type.Optional(creating ? Type.Unsafe<string>(SecretSchema) : Nullable(SecretSchema)),
    generateSecret: Type.Optional(Type.Boolean({ description: 'Crier generates a whsec_ secret and returns it in this response only' })),
    headers: Type.Optional(creating ? Type.Unsafe<Record<string, string>>(HeadersSchema) : Nullable(HeadersSchema)),
    events: required(Type.Array(EventTypeSchema, { minItems: 1, maxItems: EVENT_TYPES.length * 2 })),
    enabled: Type.Optional(Type.Boolean({ description: creating ? 'default true' : 'false stops deliveries' })),
  });
}

export function webhooksRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: StoreDeps = { box: ctx.box, allowLoopback: ctx.config.allowLoopbackFetch, inboxUrl: sandboxInboxUrl(ctx.config) };

  app.post<{ Body: WebhookInput }>('/v1/webhooks', {
    schema: {
      summary: 'Create a webhook',
      description: 'Events of the subscribed types that occur from now on are POSTed to `url`, signed when a secret is set. Without `secret` (and without `generateSecret`) deliveries are unsigned.',
      tags: ['webhooks'],
      body: bodySchema(true),
      response: { 201: One, 400: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, FIELDS, 'a field of a webhook'),
    handler: async (request, reply) => {
      const data = await createWebhook(ctx.db, deps, request.owner.orgId, request.body);
      return reply.status(201).send({ success: true, data });
    },
  });

  app.get<{ Querystring: Page }>('/v1/webhooks', {
    schema: {
      summary: "List the organization's webhooks",
      tags: ['webhooks'],
      querystring: Type.Object(PaginationQuery),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(WebhookSchema), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }) },
    },
    handler: async (request) => ({ success: true, ...(await listWebhooks(ctx.db, ctx.box, request.owner.orgId, request.query)) }),
  });

  app.get<{ Params: { id: string } }>('/v1/webhooks/:id', {
    schema: { summary: 'Get a webhook', tags: ['webhooks'], params: IdParams, response: { 200: One, 404: ErrorSchema } },
    handler: async (request) => ({ success: true, data: found(await getWebhook(ctx.db, ctx.box, request.owner.orgId, webhookId(request.params.id))) }),
  });

  app.patch<{ Params: { id: string }; Body: WebhookInput }>('/v1/webhooks/:id', {
    schema: {
      summary: 'Edit, enable or disable a webhook',
      description: 'Only the fields sent change. `headers` replaces every custom header. `secret: null` removes the secret. Disabling drops the retries already scheduled; events that occur while disabled are not delivered later.',
      tags: ['webhooks'],
      params: IdParams,
      body: bodySchema(false),
      response: { 200: One, 400: ErrorSchema, 404: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, FIELDS, 'a field of a webhook'),
    handler: async (request) => {
      const data = await updateWebhook(ctx.db, deps, request.owner.orgId, webhookId(request.params.id), request.body);
      return { success: true, data: found(data) };
    },
  });

  app.delete<{ Params: { id: string } }>('/v1/webhooks/:id', {
    schema: { summary: 'Delete a webhook and its delivery log', tags: ['webhooks'], params: IdParams, response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema } },
    handler: async (request) => {
      found((await deleteWebhook(ctx.db, request.owner.orgId, webhookId(request.params.id))) || undefined);
      return { success: true };
    },
  });

  app.post<{ Params: { id: string } }>('/v1/webhooks/:id/test', {
    schema: {
      summary: 'Send a test event',
      description: 'Queues a `test` event `{message, endpointId}` for this webhook only, whatever it subscribed to, with the normal retries. Its attempts appear in the delivery log.',
      tags: ['webhooks'],
      params: IdParams,
      // No body schema: the body is optional, and a route schema would require one.
      response: { 202: Queued, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    handler: async (request, reply) => {
      const id = webhookId(request.params.id);
      const message = testMessage(request.body);
      const webhook = found(await getWebhook(ctx.db, ctx.box, request.owner.orgId, id));
      if (!webhook.enabled) throw new RequestError(409, 'The webhook is disabled: enable it to send events to it', { code: 'webhook_disabled' });
      const eventId = await emitTestEvent(ctx.db, request.owner.orgId, id, message ?? `Test event from Crier for webhook "${webhook.name}"`);
      return reply.status(202).send({ success: true, data: { eventId, webhookId: id } });
    },
  });

  app.get<{ Params: { id: string }; Querystring: AttemptPage }>('/v1/webhooks/:id/deliveries', {
    schema: {
      summary: 'The delivery log: every attempt, newest first',
      description: '`errorKind`: timeout (no complete answer within 30 s), connect (DNS or connection failure), redirect (a 3xx: never followed), http_status (a non-2xx answer), blocked (the URL or its address is refused by the SSRF guard), too_large (an answer over 1 MB), interrupted (the worker stopped during the attempt), internal.',
      tags: ['webhooks'],
      params: IdParams,
      querystring: Type.Object({ ...PaginationQuery, eventId: Type.Optional(Type.String({ format: 'uuid' })) }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(AttemptSchema), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }), 404: ErrorSchema },
    },
    handler: async (request) => ({ success: true, ...found(await listAttempts(ctx.db, request.owner.orgId, webhookId(request.params.id), request.query)) }),
  });

  app.post<{ Params: { id: string } }>('/v1/webhooks/deliveries/:id/redeliver', {
    schema: {
      summary: 'Redeliver an event',
      description: '`:id` is an attempt `id` from the delivery log. Queues one more attempt of the same event (same event id) to the same webhook; it is appended to the log.',
      tags: ['webhooks'],
      params: IdParams,
      response: { 202: Queued, 404: ErrorSchema, 409: ErrorSchema },
    },
    handler: async (request, reply) => {
      const outcome = await redeliver(ctx.db, request.owner.orgId, requireId(request.params.id, parseNumericId, 'Delivery not found'));
      if (outcome === 'not_found') throw new RequestError(404, 'Delivery not found', { code: 'not_found' });
      if (outcome === 'disabled') throw new RequestError(409, 'The webhook is disabled: enable it to send events to it', { code: 'webhook_disabled' });
      return reply.status(202).send({ success: true, data: outcome });
    },
  });
}

/** The optional `{message}` of the Test action. */
function testMessage(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  const message = typeof body === 'object' && !Array.isArray(body) ? (body as { message?: unknown }).message : body;
  if (message === undefined) return undefined;
  if (typeof message !== 'string' || message.length < 1 || message.length > 1000) {
    throw validationError([{ field: 'message', message: 'must be a string of 1 to 1000 characters' }]);
  }
  return message;
}

/** Webhook ids are numbers (the `test` event's endpointId); anything else is a missing webhook. */
function webhookId(raw: string): number {
  return requireId(raw, parseNumericId, 'Webhook not found');
}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new RequestError(404, 'Webhook not found', { code: 'not_found' });
  return value;
}
