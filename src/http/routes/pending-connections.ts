// /v1/social-accounts/pending/:token: after a login that grants several accounts (facebook pages,
// instagram business accounts, linkedin organizations, google business locations), the app shows
// the user what was granted and connects the picks. The session token from the callback's
// `?session=` authenticates both routes (config apiKey: false): it expires and works until finalize.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { finalizePendingConnection, PENDING_TTL_MINUTES, readPendingConnection } from '../../accounts/pending-connections.ts';
import type { AppContext } from '../context.ts';
import { AccountSchema } from './social-accounts.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) });
const PageSchema = Type.Object({
  id: Type.String(),
  type: Type.String({ description: 'page, business, organization, member, location…' }),
  name: Type.String(),
  username: Type.String(),
  profilePictureUrl: Type.Union([Type.String(), Type.Null()]),
});

export function pendingConnectionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { token: string } }>('/v1/social-accounts/pending/:token', {
    config: { apiKey: false },
    schema: {
      summary: 'What a login granted, to pick from',
      description: `Authenticated by the session token of the callback's \`?session=\` (no API key). Valid ${PENDING_TTL_MINUTES} minutes, until finalized.`,
      tags: ['social-accounts'],
      security: [],
      params: TokenParams,
      response: {
        200: Type.Object({ success: Type.Boolean(), data: Type.Object({ network: Type.String(), expiresAt: Type.String({ format: 'date-time' }), availablePages: Type.Array(PageSchema) }) }),
        404: ErrorSchema,
        410: ErrorSchema,
      },
    },
    handler: async (request) => ({ success: true, data: await readPendingConnection(ctx.db, ctx.box, request.params.token) }),
  });

  app.post<{ Params: { token: string }; Body: { selectedPageIds?: unknown } }>('/v1/social-accounts/pending/:token/finalize', {
    config: { apiKey: false },
    schema: {
      summary: 'Connect the picked pages, organizations or locations',
      description: 'Connects each selected id of `availablePages` (one that was connected before is updated in place) and ends the session: a second finalize is a 404.',
      tags: ['social-accounts'],
      security: [],
      params: TokenParams,
      body: Type.Object({ selectedPageIds: Type.Optional(Type.Unknown()) }),
      response: {
        200: Type.Object({
          success: Type.Boolean(),
          connectedAccounts: Type.Array(AccountSchema),
          data: Type.Object({ connectedAccounts: Type.Array(AccountSchema) }, { description: 'The same accounts, for clients that read them under `data`' }),
        }),
        400: ErrorSchema, 404: ErrorSchema, 410: ErrorSchema,
      },
    },
    handler: async (request) => {
      const connectedAccounts = await finalizePendingConnection(ctx.db, ctx.box, request.params.token, request.body ?? {});
      return { success: true, connectedAccounts, data: { connectedAccounts } };
    },
  });
}
