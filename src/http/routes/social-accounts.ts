// /v1/social-accounts: the connected accounts of the org.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { connectWithPassword, deleteSocialAccount, getSocialAccount, listSocialAccounts, type AccountFilters } from '../../accounts/social-accounts.ts';
import { decodeId } from '../../core/ids.ts';
import { RequestError } from '../../core/errors.ts';
import { credentialFieldsOf, type Network } from '../../networks/contract.ts';
import { PaginationQuery } from '../../validation/pagination.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';

export const AccountSchema = Type.Object({
  id: Type.String(),
  nickname: Type.String(),
  network: Type.String(),
  username: Type.String(),
  tenantId: Type.Union([Type.String(), Type.Null()]),
  accountType: Type.String(),
  isActive: Type.Integer({ enum: [0, 1] }),
  disconnectedReason: Type.Union([Type.String(), Type.Null()], { description: 'why the account was disconnected (the error that disconnected it); null while active' }),
  disconnectedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when it was disconnected; null while active' }),
  profile_picture_url: Type.Union([Type.String(), Type.Null()]),
  network_unique_id: Type.String(),
  sandbox: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const accountId = (raw: string) => requireId(raw, decodeId, 'Social account not found');

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
        ...PaginationQuery,
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

  app.get<{ Params: { id: string } }>('/v1/social-accounts/:id', {
    schema: { summary: 'Get a connected social account', tags: ['social-accounts'], params: IdParams, response: { 200: Type.Object({ success: Type.Boolean(), data: AccountSchema }), 404: ErrorSchema } },
    handler: async (request) => {
      const account = await getSocialAccount(ctx.db, request.owner.orgId, accountId(request.params.id));
      if (!account) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
      return { success: true, data: account };
    },
  });

  app.delete<{ Params: { id: string } }>('/v1/social-accounts/:id', {
    schema: {
      summary: 'Delete a social account',
      description: 'Removes the account and its stored tokens. An account that posts were sent to is kept (409 `account_has_posts`), so those posts keep their per-account history.',
      tags: ['social-accounts'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema, 409: ErrorSchema },
    },
    handler: async (request) => {
      if (!(await deleteSocialAccount(ctx.db, request.owner.orgId, accountId(request.params.id)))) {
        throw new RequestError(404, 'Social account not found', { code: 'not_found' });
      }
      return { success: true };
    },
  });

  for (const network of ctx.networks.all) if (network.connect.kind === 'password') passwordConnectRoute(app, ctx, network);
}

/**
 * POST /v1/social-accounts/<network> for each network that connects without OAuth: its credential
 * fields (an app password's `{handle, appPassword}`, a bot token's own) and the tenant.
 */
function passwordConnectRoute(app: FastifyInstance, ctx: AppContext, network: Network): void {
  const login = ctx.networks.passwordLogin(network.id)!;
  const fields = credentialFieldsOf(network.connect);
  const { summary, description } = connectTexts(network);
  const ownFields = network.connect.kind === 'password' && network.connect.fields !== undefined;
  app.post<{ Body: Record<string, string> & { tenantId?: string } }>(`/v1/social-accounts/${network.id}`, {
    schema: {
      summary,
      description,
      tags: ['social-accounts'],
      body: Type.Object({
        // writeOnly: a secret is sent, never answered (the dashboard types it into a password input).
        ...Object.fromEntries(fields.map((field) => {
          const value = Type.String({
            minLength: 1, maxLength: field.maxLength, ...(ownFields ? { description: field.description } : {}), ...(field.secret ? { writeOnly: true } : {}),
          });
          return [field.name, field.optional ? Type.Optional(value) : value];
        })),
        tenantId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,128}$' })),
      }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: AccountSchema }) },
    },
    handler: async (request) => {
      const { tenantId, ...body } = request.body;
      const credentials = Object.fromEntries(fields.filter((field) => body[field.name] !== undefined).map((field) => [field.name, body[field.name]!]));
      const id = await connectWithPassword(ctx.db, ctx.box, network.id, login, { orgId: request.owner.orgId, credentials, tenantId });
      const account = await getSocialAccount(ctx.db, request.owner.orgId, id);
      if (!account) throw new RequestError(500, 'the account vanished after connecting');
      return { success: true, data: account };
    },
  });
}

/** The operation's summary and description: an app password's, or those of the fields a network declares. */
function connectTexts(network: Network): { summary: string; description: string } {
  const again = 'Connecting the same account again updates it in place.';
  if (network.connect.kind !== 'password' || !network.connect.fields) {
    return {
      summary: `Connect a ${network.label} account with an app password`,
      description: `The handle and app password are validated by logging in to ${network.label}; the app password is stored encrypted and never returned. ${again}`,
    };
  }
  const { fields } = network.connect;
  const secrets = fields.filter((field) => field.secret).map((field) => `\`${field.name}\``);
  return {
    summary: `Connect a ${network.label} account with ${fields.map((field) => field.name).join(' and ')}`,
    description: `${fields.map((field) => `\`${field.name}\`: ${field.description}.`).join(' ')} They are validated by calling ${network.label}; `
      + `${secrets.join(' and ')} ${secrets.length > 1 ? 'are' : 'is'} stored encrypted and never returned. ${again}`,
  };
}
