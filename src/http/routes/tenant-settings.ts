// /v1/tenant-settings: a tenant's own settings (orgs/settings.ts). A tenant is the name an app gives
// its accounts (`tenantId` when connecting); one that requires approval holds every post targeting
// any of its accounts for an approver, whatever the organization's setting. Every key reads them; only
// an admin key changes them (orgs/roles.ts: not among the write routes of the other roles).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { refuseUnknownFields } from '../../validation/strip.ts';
import { listTenantSettings, readTenantSettings, updateTenantSettings } from '../../orgs/settings.ts';
import type { AppContext } from '../context.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const REQUIRE_APPROVAL = "a post created (not a draft) targeting any account of this tenant waits, `pending_approval`, until an approver or admin key approves or rejects it, even when the organization's own `requireApproval` is off";
const TenantSettingsSchema = Type.Object({
  tenantId: Type.String(),
  requireApproval: Type.Boolean({ description: REQUIRE_APPROVAL }),
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when last changed; null for a tenant never set (the defaults)' }),
});
const Answer = Type.Object({ success: Type.Boolean(), data: TenantSettingsSchema });
/** The router's longest path part (Fastify's maxParamLength): a longer one is a 414 before this route. */
const MAX_TENANT_ID = 100;
const TenantParams = Type.Object({ tenantId: Type.String({ minLength: 1, maxLength: MAX_TENANT_ID, description: `the tenant, as the accounts carry it (\`tenantId\`); up to ${MAX_TENANT_ID} characters` }) });
const FIELDS = ['requireApproval'];

export function tenantSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/tenant-settings', {
    schema: {
      summary: 'List the tenants whose settings were set',
      description: 'Every tenant changed at least once, by name. A tenant never set has the defaults (`requireApproval: false`).',
      tags: ['settings'],
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(TenantSettingsSchema) }) },
    },
    handler: async (request) => ({ success: true, data: await listTenantSettings(ctx.db, request.owner.orgId) }),
  });

  app.get<{ Params: { tenantId: string } }>('/v1/tenant-settings/:tenantId', {
    schema: { summary: "Read a tenant's settings", tags: ['settings'], params: TenantParams, response: { 200: Answer, 400: ErrorSchema } },
    handler: async (request) => ({ success: true, data: await readTenantSettings(ctx.db, request.owner.orgId, request.params.tenantId) }),
  });

  app.patch<{ Params: { tenantId: string }; Body: { requireApproval?: boolean } }>('/v1/tenant-settings/:tenantId', {
    schema: {
      summary: "Change a tenant's settings",
      description: 'Admin keys only. Applies to posts created (or made non-drafts) from then on; turning it off leaves the posts already waiting for a decision waiting. A tenant need not have accounts yet.',
      tags: ['settings'],
      params: TenantParams,
      body: Type.Object({ requireApproval: Type.Optional(Type.Boolean({ description: REQUIRE_APPROVAL })) }),
      response: { 200: Answer, 400: ErrorSchema, 403: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, FIELDS, 'a setting'),
    handler: async (request) => {
      const { requireApproval } = request.body;
      if (requireApproval === undefined) throw validationError([{ field: 'requireApproval', message: 'send a setting to change: requireApproval' }]);
      return { success: true, data: await updateTenantSettings(ctx.db, request.owner.orgId, request.params.tenantId, { requireApproval }) };
    },
  });
}
