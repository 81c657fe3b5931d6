// /v1/posts/bulk: many posts from one CSV or JSON-lines file (posts/bulk-rows.ts says how a row becomes
// a create body). `?dry_run=true` answers a verdict per row, synchronously (posts/bulk-dry-run.ts); the
// real run queues a job that a worker runs row by row (posts/bulk-runner.ts), read back with GET, listed
// with GET /v1/posts/bulk, stopped with POST /v1/posts/bulk/:id/cancel (posts/bulk-cancel.ts): a POST,
// not a DELETE, because the job and its record stay.
import type { FastifyInstance } from 'fastify';
import { RequestError } from '../../core/errors.ts';
import { judgeBulkRows } from '../../posts/bulk-dry-run.ts';
import { cancelBulkImport } from '../../posts/bulk-cancel.ts';
import { getBulkImport, listBulkImports, queueBulkImport } from '../../posts/bulk-imports.ts';
import { bulkFormatOf, MAX_BULK_ROWS, parseBulkFile } from '../../posts/bulk-rows.ts';
import { createSettings } from '../../posts/bulk-runner.ts';
import { knownMediaReader, networkPreview, parseDryRun } from '../../posts/dry-run.ts';
import { DryRunResponseSchema } from '../../posts/schema.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import { Type } from '../../validation/json-schema.ts';
import type { AppContext } from '../context.ts';
import { parseIdempotencyKey } from '../idempotency.ts';
import { IdParams } from '../params.ts';

/** A file of MAX_BULK_ROWS rows with their texts and media URLs fits; the API's general limit would not take it. */
const BULK_BODY_LIMIT = 32 * 1_048_576;

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const RowErrorSchema = Type.Object({ error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const BulkImportSchema = Type.Object({
  id: Type.String(),
  status: Type.String({ enum: ['queued', 'running', 'completed', 'cancelled'] }),
  format: Type.String({ enum: ['csv', 'ndjson'] }),
  total: Type.Integer(),
  processed: Type.Integer({ description: 'rows done: created + failed' }),
  created: Type.Integer(),
  failed: Type.Integer(),
  cancelled: Type.Integer({ description: 'rows still pending when the job was cancelled: no post was created for them' }),
  createdAt: Type.String(), updatedAt: Type.String(), completedAt: Type.Union([Type.String(), Type.Null()]),
  cancelledAt: Type.Union([Type.String(), Type.Null()]),
  rows: Type.Optional(Type.Array(Type.Object({
    row: Type.Integer(),
    status: Type.String({ enum: ['pending', 'created', 'failed', 'cancelled'] }),
    postId: Type.Optional(Type.String()),
    error: Type.Optional(RowErrorSchema),
  }))),
});

const VerdictSchema = Type.Object({
  row: Type.Integer({ description: 'from 1: the first row after the CSV header, or the first non-blank line' }),
  ok: Type.Boolean({ description: 'the create would store the post and every destination could publish it' }),
  accepted: Type.Boolean({ description: 'the create would store the post; false: `error`, `code`, `details` are its 400' }),
  error: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
  details: Type.Optional(Type.Unknown()),
  warnings: Type.Optional(Type.Array(Type.String())),
  scheduledAt: Type.Optional(Type.String({ description: '"next-free-slot": the slot the row would take, after the rows before it' })),
  destinations: Type.Optional(DryRunResponseSchema.properties.destinations),
});

export function postsBulkRoutes(app: FastifyInstance, ctx: AppContext): void {
  // A scope of its own: the file's content types are parsed as text here alone.
  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'application/x-ndjson', 'application/ndjson', 'application/jsonl'], { parseAs: 'string', bodyLimit: BULK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    bulkRoutes(scope, ctx);
  });
}

function bulkRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { fetch, quotas } = createSettings(ctx.config, ctx.networks);
  const previewDeps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch: userFetchFor(ctx.config.allowLoopbackFetch) };
  const knownMedia = knownMediaReader(ctx.db, ctx.config.publicBaseUrl);

  app.post('/v1/posts/bulk', {
    bodyLimit: BULK_BODY_LIMIT,
    schema: {
      summary: 'Create many posts from a CSV or JSON-lines file',
      operationId: 'createBulkImport',
      description: `\`Content-Type: text/csv\` (a header row; columns \`accounts\` (ids or usernames separated by commas or spaces), \`content\`, \`scheduledAt\` (a date-time or \`next-free-slot\`), \`media\` (URLs separated by spaces), \`altText\`, \`isDraft\`, \`processMedia\`, and \`<network>.<field>\` for a platform block's field) or \`application/x-ndjson\` (each line a body of POST /v1/posts). At most ${MAX_BULK_ROWS} rows. With \`?dry_run=true\`: a verdict per row, the judgement of POST /v1/posts?dry_run=true, nothing stored. Without: 202 with a job that a worker runs row by row (each row's post created exactly once, through POST /v1/posts's own path); read it with GET /v1/posts/bulk/:id; \`bulk_import.completed\` when every row is done.`,
      tags: ['posts'],
      querystring: Type.Object({ dry_run: Type.Optional(Type.Boolean({ description: 'Judge each row: store nothing.' })) }),
      headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ maxLength: 255 })) }),
      response: {
        200: Type.Object({ success: Type.Boolean(), dryRun: Type.Literal(true), total: Type.Integer(), ok: Type.Integer({ description: 'rows whose verdict is ok' }), rows: Type.Array(VerdictSchema) }),
        202: Type.Object({ success: Type.Boolean(), data: BulkImportSchema }),
        400: ErrorSchema, 409: ErrorSchema, 413: ErrorSchema, 415: ErrorSchema, 422: ErrorSchema,
      },
    },
    // The file is read by posts/bulk-rows.ts, and each row by the create's own validation.
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request, reply) => {
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const dryRun = parseDryRun((request.query as Record<string, unknown>).dry_run);
      const format = bulkFormatOf(request.headers['content-type']);
      if (!format || typeof request.body !== 'string') {
        throw new RequestError(415, 'Send the file as text/csv or application/x-ndjson', {
          code: 'unsupported_media_type', details: [{ field: 'Content-Type', message: 'must be text/csv or application/x-ndjson' }],
        });
      }
      const rows = parseBulkFile(format, request.body);
      const { orgId } = request.owner;
      if (dryRun) {
        const verdicts = await judgeBulkRows({ db: ctx.db, orgId, now: new Date(), fetch, quotas, knownMedia: (urls) => knownMedia(orgId, urls), remote: networkPreview(previewDeps, orgId) }, rows);
        const body = { success: true, dryRun: true, total: verdicts.length, ok: verdicts.filter((v) => v.ok).length, rows: verdicts };
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
      }
      const result = await queueBulkImport(ctx.db, { orgId, key, format, text: request.body, rows, requireApproval: request.owner.requireApproval === true });
      if (result.replayed) reply.header('idempotency-replayed', 'true');
      return reply.code(result.status as 202).type('application/json; charset=utf-8').send(JSON.stringify(result.body));
    },
  });

  app.get<{ Params: { id: string } }>('/v1/posts/bulk/:id', {
    schema: {
      summary: 'A bulk import: its progress and each row\'s outcome',
      operationId: 'getBulkImport',
      tags: ['posts'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), data: BulkImportSchema }), 404: ErrorSchema },
    },
    handler: async (request, reply) => {
      const data = await getBulkImport(ctx.db, request.owner.orgId, request.params.id);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ success: true, data }));
    },
  });

  app.get<{ Querystring: { limit?: number; offset?: number } }>('/v1/posts/bulk', {
    schema: {
      summary: "List the organization's bulk imports",
      operationId: 'listBulkImports',
      description: 'Newest first, without their rows (GET /v1/posts/bulk/:id has them). `count` is the number of jobs across pages.',
      tags: ['posts'],
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'jobs per page' })),
        offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'jobs to skip' })),
      }),
      response: {
        200: Type.Object({ success: Type.Boolean(), data: Type.Array(BulkImportSchema), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
        400: ErrorSchema,
      },
    },
    handler: async (request, reply) => {
      const page = await listBulkImports(ctx.db, request.owner.orgId, request.query);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ success: true, ...page }));
    },
  });

  app.post<{ Params: { id: string } }>('/v1/posts/bulk/:id/cancel', {
    schema: {
      summary: 'Cancel a bulk import',
      operationId: 'cancelBulkImport',
      description: 'Stops a `queued` or `running` job between chunks of rows: the rows being created when the cancel arrives (at most 100, written together) finish, and every row still `pending` becomes `cancelled` — a row is created with its post or cancelled without one, never half. The job becomes `cancelled`; no `bulk_import.completed` is sent for it. Posts already created stay: cancel each with DELETE /v1/posts/:id (the rows\' `postId`). Cancelling a cancelled job answers it as it is; a `completed` job (nothing left to do) is a 409 `bulk_import_completed`.',
      tags: ['posts'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean(), data: BulkImportSchema }), 404: ErrorSchema, 409: ErrorSchema },
    },
    handler: async (request, reply) => {
      const data = await cancelBulkImport(ctx.db, request.owner.orgId, request.params.id);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify({ success: true, data }));
    },
  });
}
