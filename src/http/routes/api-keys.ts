// /v1/api-keys: the organization's API keys. A key is shown once, when created; listings show its
// prefix only. Only admin keys create and revoke keys (orgs/roles.ts checks every route's role).
import { Type, type TSchema } from '../../validation/json-schema.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestError } from '../../core/errors.ts';
import { refuseUnknownFields } from '../../validation/strip.ts';
import { issueApiKey, listApiKeys, revokeOrgApiKey } from '../../orgs/api-keys.ts';
import { ROLES, type Role } from '../../orgs/roles.ts';
import { PaginationQuery, type Page } from '../../validation/pagination.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

const ApiKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'the first characters of the key, to recognise it' }),
  userId: Type.String({ description: 'the user the key belongs to' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Nullable(Type.String({ format: 'date-time', description: 'updated at most once a minute' })),
  revokedAt: Nullable(Type.String({ format: 'date-time' })),
  fixedQuota: Nullable(Type.Integer({ description: 'requests this key may make in total; null: limited per window instead' })),
  quotaUsed: Type.Integer(),
  rateLimit: Nullable(Type.Integer({ description: "the operator's per-window limit for this key; null: the organization's computed limit" })),
  role: Type.String({ enum: [...ROLES], description: 'admin: everything; editor: posts, media, queues, reads; approver: approves or rejects posts, reads' }),
});

const CreatedApiKeySchema = Type.Object({ ...ApiKeySchema.properties, key: Type.String({ description: 'the API key: shown this once, never again' }) });

/** `rateLimit` is not among them: only an operator sets it (a field dropped silently would make the key without it). */
const CREATE_FIELDS = ['name', 'fixedQuota', 'role'];

interface CreateBody {
  name: string;
  fixedQuota?: number;
  role?: Role;
}

export function apiKeysRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: Page }>('/v1/api-keys', {
    schema: {
      summary: "List the organization's API keys",
      description: 'Newest first, revoked keys included. The keys themselves are never shown again after creation.',
      tags: ['api-keys'],
      querystring: Type.Object(PaginationQuery),
      response: {
        200: Type.Object({ success: Type.Boolean(), data: Type.Array(ApiKeySchema), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
        400: ErrorSchema,
      },
    },
    handler: async (request) => ({ success: true, ...(await listApiKeys(ctx.db, request.owner.orgId, request.query)) }),
  });

  app.post<{ Body: CreateBody }>('/v1/api-keys', {
    schema: {
      summary: 'Create an API key',
      description: 'The key belongs to the user of the key that creates it. `key` in the response is the only time the key is shown: store it. With `fixedQuota` the key may make that many requests in total instead of being limited per window. Keys with a fixed quota cannot create or revoke keys. `role` (default `admin`) limits what the new key may do: `editor` writes posts, media and queues but manages no keys, webhooks, settings or accounts and cannot approve; `approver` reads and approves or rejects posts. Only an admin key creates keys (403 `forbidden_role` otherwise).',
      tags: ['api-keys'],
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'a name with at least one visible character' }),
        fixedQuota: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000_000 })),
        role: Type.Optional(Type.String({ enum: [...ROLES], description: 'what the key may do; default admin' })),
      }),
      response: { 201: Type.Object({ success: Type.Boolean(), data: CreatedApiKeySchema }), 400: ErrorSchema, 403: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, CREATE_FIELDS, 'a field of an API key'),
    handler: async (request, reply) => {
      refuseQuotaKey(request, 'create');
      const { orgId, userId } = request.owner;
      const data = await issueApiKey(ctx.db, orgId, userId, { name: request.body.name.trim(), fixedQuota: request.body.fixedQuota, role: request.body.role });
      return reply.status(201).send({ success: true, data });
    },
  });

  app.delete<{ Params: { id: string } }>('/v1/api-keys/:id', {
    schema: {
      summary: 'Revoke an API key',
      description: 'The key stops working at once, on every API process. Revoking a revoked key changes nothing.',
      tags: ['api-keys'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), data: ApiKeySchema }), 403: ErrorSchema, 404: ErrorSchema },
    },
    handler: async (request) => {
      refuseQuotaKey(request, 'revoke');
      const data = await revokeOrgApiKey(ctx.db, request.owner.orgId, request.params.id);
      if (!data) throw new RequestError(404, 'API key not found', { code: 'not_found' });
      return { success: true, data };
    },
  });
}

/**
 * A fixed-quota key is handed out for limited use (a trial, a partner): if it could mint keys without
 * a quota, or revoke the admin's, the quota would limit nothing.
 */
function refuseQuotaKey(request: FastifyRequest, action: string): void {
  if (request.owner.fixedQuota === null) return;
  throw new RequestError(403, `A key with a fixed quota cannot ${action} API keys; use a key without a quota`, { code: 'forbidden' });
}
