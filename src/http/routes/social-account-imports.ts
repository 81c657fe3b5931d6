// /v1/social-accounts/:id/imports: importing an account's own posts from its network.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { createImport, getImport, listImports, MAX_IMPORT, type ImportRequest } from '../../engagement/imports.ts';
import { decodeId } from '../../core/ids.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Instant = Type.Union([Type.String(), Type.Null()]);

const ImportSchema = Type.Object({
  id: Type.String(),
  socialAccountId: Type.String(),
  status: Type.String({ enum: ['queued', 'running', 'completed', 'partial', 'failed'] }),
  since: Instant, until: Instant, limit: Type.Integer(),
  imported: Type.Integer(), skipped: Type.Integer({ description: 'Already known to Crier (published through it, or imported before)' }),
  failed: Type.Integer({ description: 'Items the network listed that are not posts Crier can store (reposts…)' }),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(), updatedAt: Type.String(), completedAt: Instant,
});

export function socialAccountImportsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Params: { id: string }; Body: ImportRequest }>('/v1/social-accounts/:id/imports', {
    schema: {
      summary: "Import the account's own posts from its network",
      description: `Queues a job that pages through the account's posts on its network (newest first, within since–until, at most \`limit\`, default and maximum ${MAX_IMPORT}) and stores each as a published post of the organization with its platform id and URL; posts Crier already knows are skipped. Ends with \`import.completed\` or \`import.failed\`. A network whose API does not list an account's posts: 400 \`import_not_supported\`.`,
      tags: ['social-accounts'],
      params: IdParams,
      body: Type.Object({
        since: Type.Optional(Type.String({ description: 'ISO 8601: posts created at or after' })),
        until: Type.Optional(Type.String({ description: 'ISO 8601: posts created at or before' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_IMPORT })),
      }, { additionalProperties: false }),
      response: { 202: Type.Object({ success: Type.Boolean(), data: ImportSchema }), 400: ErrorSchema, 404: ErrorSchema },
    },
    // imports.ts judges the body, so every wrong field is named at once (the schema above documents it).
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request, reply) => {
      const accountId = requireId(request.params.id, decodeId, 'Social account not found');
      const data = await createImport(ctx.db, ctx.networks, request.owner.orgId, accountId, request.body ?? {});
      return reply.code(202).send({ success: true, data });
    },
  });

  app.get<{ Params: { id: string } }>('/v1/social-accounts/:id/imports', {
    schema: { summary: "The account's import jobs, newest first (at most 100)", tags: ['social-accounts'], params: IdParams, response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(ImportSchema) }), 404: ErrorSchema } },
    handler: async (request) => ({ success: true, data: await listImports(ctx.db, request.owner.orgId, requireId(request.params.id, decodeId, 'Social account not found')) }),
  });

  app.get<{ Params: { id: string; importId: string } }>('/v1/social-accounts/:id/imports/:importId', {
    schema: { summary: 'An import job', tags: ['social-accounts'], params: Type.Object({ id: Type.String(), importId: Type.String() }), response: { 200: Type.Object({ success: Type.Boolean(), data: ImportSchema }), 404: ErrorSchema } },
    handler: async (request) => ({
      success: true,
      data: await getImport(ctx.db, request.owner.orgId, requireId(request.params.id, decodeId, 'Social account not found'), request.params.importId),
    }),
  });
}
