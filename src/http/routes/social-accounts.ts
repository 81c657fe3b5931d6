// /v1/social-accounts: the connected accounts of the org.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { listSocialAccounts, type AccountFilters } from '../../accounts/social-accounts.ts';
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
}
