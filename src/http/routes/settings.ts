// /v1/settings: the organization's settings. Every key reads them; only an admin key changes them
// (orgs/roles.ts).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { refuseUnknownFields } from '../../validation/strip.ts';
import { readSettings, updateSettings, type OrgSettings } from '../../orgs/settings.ts';
import type { AppContext } from '../context.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const REQUIRE_APPROVAL = 'a post created (not a draft) waits, `pending_approval`, until an approver or admin key approves it (POST /v1/posts/:id/approve) or rejects it';
const SettingsSchema = Type.Object({ requireApproval: Type.Boolean({ description: REQUIRE_APPROVAL }) });
const Answer = Type.Object({ success: Type.Boolean(), data: SettingsSchema });
const FIELDS = ['requireApproval'];

export function settingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/settings', {
    schema: { summary: "Read the organization's settings", tags: ['settings'], response: { 200: Answer } },
    handler: async (request) => ({ success: true, data: await readSettings(ctx.db, request.owner.orgId) }),
  });

  app.patch<{ Body: Partial<OrgSettings> }>('/v1/settings', {
    schema: {
      summary: "Change the organization's settings",
      description: 'Admin keys only. A field left out keeps its value. Turning `requireApproval` on applies to posts created (or made non-drafts) from then on; turning it off leaves the posts already waiting for a decision waiting.',
      tags: ['settings'],
      body: Type.Object({ requireApproval: Type.Optional(Type.Boolean({ description: REQUIRE_APPROVAL })) }),
      response: { 200: Answer, 400: ErrorSchema, 403: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, FIELDS, 'a setting'),
    handler: async (request) => {
      if (request.body.requireApproval === undefined) throw validationError([{ field: 'requireApproval', message: 'send a setting to change: requireApproval' }]);
      return { success: true, data: await updateSettings(ctx.db, request.owner.orgId, request.body) };
    },
  });
}
