// /v1/social-accounts: the connected accounts of the org.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { connectBlueskyAccount, getSocialAccount, listSocialAccounts, type AccountFilters } from '../../accounts/social-accounts.ts';
import { RequestError } from '../../errors.ts';
import type { AppContext } from '../context.ts';

const AccountSchema = Type.Object({
  id: Type.String(),
  nickname: Type.String(),
  network: Type.String(),
  username: Type.String(),
  tenantId: Type.Union([Type.String(), Type.Null()]),
  accountType: Type.String(),
  isActive: Type.Integer({ enum: [0, 1] }),
  profile_picture_url: Type.Union([Type.String(), Type.Null()]),
  network_unique_id: Type.String(),
  sandbox: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});

export function socialAccountsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: AccountFilters }>('/v1/social-accounts', {
    schema: {
      summary: 'List connected social accounts',
      tags: ['social-accounts'],
      querystring: Type.Object({
        id: Type.Optional(Type.String()),
        tenantId: Type.Optional(Type.String()),
        network: Type.Optional(Type.String()),
        networkUniqueId: Type.Optional(Type.String()),
        username: Type.Optional(Type.String({ description: 'partial, case-insensitive match' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
        offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
      }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          data: Type.Array(AccountSchema),
          count: Type.Integer({ description: 'accounts matching the filters, across all pages' }),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
      },
    },
    handler: async (request) => ({ success: true, ...(await listSocialAccounts(ctx.db, request.owner.orgId, request.query)) }),
  });

  app.post<{ Body: { handle: string; appPassword: string; tenantId?: string } }>('/v1/social-accounts/bluesky', {
    schema: {
      summary: 'Connect a Bluesky account with an app password',
      description: 'The handle and app password are validated by logging in to Bluesky; the app password is stored encrypted and never returned. Connecting the same account again updates it in place.',
      tags: ['social-accounts'],
      body: Type.Object({
        handle: Type.String({ minLength: 1, maxLength: 253 }),
        appPassword: Type.String({ minLength: 1, maxLength: 200 }),
        tenantId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' })),
      }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: AccountSchema }) },
    },
    handler: async (request) => {
      const { handle, appPassword, tenantId } = request.body;
      const id = await connectBlueskyAccount(ctx.db, ctx.box, ctx.config.networks.blueskyService, { orgId: request.owner.orgId, handle, appPassword, tenantId });
      const account = await getSocialAccount(ctx.db, request.owner.orgId, id);
      if (!account) throw new RequestError(500, 'the account vanished after connecting');
      return { success: true, data: account };
    },
  });
}
