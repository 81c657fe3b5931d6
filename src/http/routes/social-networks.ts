// /v1/social-networks: the org's own OAuth apps (BYOK) and the auth URL that starts a connect; and
// the public OAuth callback (outside /v1, no API key: the single-use state identifies the connect).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { completeCallback, createAuthUrl, redirectTarget, type OAuthSettings } from '../../accounts/oauth-connect.ts';
import { getSocialAccount } from '../../accounts/social-accounts.ts';
import { deleteSocialNetwork, getSocialNetwork, listSocialNetworks, saveSocialNetwork, type SocialNetworkInput, type SocialNetworkJson } from '../../accounts/social-networks.ts';
import { RequestError } from '../../core/errors.ts';
import { decodeId } from '../../core/ids.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';
import { inboundSetupOf } from '../../inbound/verify-tokens.ts';
import type { NetworkId } from '../../core/network-id.ts';
import { connectsThroughInstances } from '../../networks/registry.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const NetworkSchema = Type.Object({
  id: Type.String(),
  network: Type.String(),
  client_key: Type.String(),
  scopes: Type.Union([Type.Array(Type.String()), Type.Null()], { description: "the scopes connects ask for; null: the network's defaults" }),
  config_id: Type.Union([Type.String(), Type.Null()], { description: "where the network's login takes a saved configuration instead of scopes (Meta's Facebook Login for Business): the one connects present; null: scopes" }),
  createdAt: Type.String({ format: 'date-time' }),
  inbound: Type.Union([
    Type.Object({
      callback_url: Type.String({ description: "the Callback URL to paste in the network's webhook settings" }),
      verify_token: Type.String({ description: 'the Verify Token to paste with it' }),
    }),
    Type.Null(),
  ], { description: 'for networks that send webhooks (comments, direct messages): how to point them at Crier; null for the others' }),
});
const One = Type.Object({ success: Type.Boolean(), data: NetworkSchema });

/** The providers come from the registry the app was built with (built once, at start). */
function oauthSettings(ctx: AppContext): OAuthSettings {
  const messagingScopes = Object.fromEntries(ctx.networks.all.flatMap((n) => {
    const scopes = ctx.networks.capabilities(n.id).messages?.scopes;
    return scopes ? [[n.id, scopes]] : [];
  }));
  return {
    publicBaseUrl: ctx.config.publicBaseUrl, providers: ctx.networks.oauthProviders(), sandbox: ctx.config.sandbox, managedApps: ctx.config.managedApps, messagingScopes,
    ...(ctx.config.redirectOrigins ? { redirectOrigins: ctx.config.redirectOrigins } : {}),
  };
}

const networkId = (raw: string) => requireId(raw, decodeId, 'Social network not found');

export function socialNetworksRoutes(app: FastifyInstance, ctx: AppContext): void {
  /** The app's record with what the network's webhook settings need (src/inbound/). */
  const withInbound = async (data: SocialNetworkJson) => {
    const network = data.network as NetworkId;
    const inbound = await inboundSetupOf(ctx.db, ctx.config.publicBaseUrl, decodeId(data.id)!, network, Boolean(ctx.networks.capabilities(network).inbound));
    return { ...data, inbound };
  };
  app.post<{ Body: SocialNetworkInput }>('/v1/social-networks', {
    schema: {
      summary: 'Register your OAuth app for a network',
      description: "Accounts of this network are then connected through your app. The client secret is stored encrypted and never returned. Registering the same network again replaces its credentials. `scopes` (optional) replaces the network's default scopes for connects through this app, e.g. `[\"openid\",\"profile\",\"email\",\"w_member_social\"]` for a LinkedIn app without Community Management approval. `config_id` (optional, where the network's login takes one: Meta's Facebook Login for Business, for Business apps): the saved configuration the login dialog presents in place of scopes.",
      tags: ['social-networks'],
      // Checked in the domain, so every problem comes back in `details` with a message that says what to send.
      body: Type.Object({ network: Type.Optional(Type.Unknown()), client_key: Type.Optional(Type.Unknown()), client_secret: Type.Optional(Type.Unknown()), scopes: Type.Optional(Type.Unknown()), config_id: Type.Optional(Type.Unknown()) }),
      response: { 200: One, 201: One, 400: ErrorSchema },
    },
    handler: async (request, reply) => {
      const { data, created } = await saveSocialNetwork(ctx.db, ctx.box, request.owner.orgId, request.body ?? {});
      return reply.status(created ? 201 : 200).send({ success: true, data: await withInbound(data) });
    },
  });

  app.get('/v1/social-networks', {
    schema: { summary: 'List your registered OAuth apps', tags: ['social-networks'], response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(NetworkSchema) }) } },
    handler: async (request) => ({ success: true, data: await Promise.all((await listSocialNetworks(ctx.db, request.owner.orgId)).map(withInbound)) }),
  });

  app.get<{ Params: { id: string } }>('/v1/social-networks/:id', {
    schema: { summary: 'Get a registered OAuth app', tags: ['social-networks'], params: IdParams, response: { 200: One, 404: ErrorSchema } },
    handler: async (request) => {
      const data = await getSocialNetwork(ctx.db, request.owner.orgId, networkId(request.params.id));
      if (!data) throw new RequestError(404, 'Social network not found', { code: 'not_found' });
      return { success: true, data: await withInbound(data) };
    },
  });

  app.delete<{ Params: { id: string } }>('/v1/social-networks/:id', {
    schema: {
      summary: 'Remove a registered OAuth app',
      description: 'Accounts connected through it stay, but their tokens can no longer be refreshed until an app is registered again.',
      tags: ['social-networks'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema },
    },
    handler: async (request) => {
      if (!(await deleteSocialNetwork(ctx.db, request.owner.orgId, networkId(request.params.id)))) throw new RequestError(404, 'Social network not found', { code: 'not_found' });
      return { success: true };
    },
  });

  // Networks whose accounts live on a server the user names (Mastodon's instances): their connect takes `instance_url`.
  const instanceNetworks = ctx.networks.all.filter((n) => connectsThroughInstances(n.id)).map((n) => n.id);
  app.post<{ Params: { network: string }; Body: { redirect_uri?: string; tenant_id?: string; scopes?: string[]; instance_url?: string } }>('/v1/social-networks/:network/auth-url', {
    schema: {
      summary: 'Start connecting an account: the network authorize URL',
      description: 'Send the user to `auth_url`. After consent the network calls Crier back, Crier stores the account and redirects to `redirect_uri` with `?account_id=<id>&session=<token>` (the session lists that one account and finalizes to it unchanged, for clients that read only `?session=`); where one login grants several pages, organizations or locations, with `?session=<token>` alone, the user picking through GET /v1/social-accounts/pending/{token} and its finalize; with `?error=&error_description=` when the user declined or the network refused. The URL is valid 10 minutes, once. Register your app for the network first (POST /v1/social-networks), except on a network whose accounts live on a server the user names (`instance_url`: ' + instanceNetworks.join(', ') + '): there Crier registers its own app on that server on first use. `scopes: ["messaging"]` (networks with direct messages) also asks for the messaging permissions: only accounts connected so receive and send direct messages (/v1/conversations).',
      tags: ['social-networks'],
      params: Type.Object({ network: Type.String({ maxLength: 32 }) }),
      body: Type.Object({
        redirect_uri: Type.Optional(Type.String({ description: 'where the user is sent after connecting (any http(s) URL, unless CRIER_REDIRECT_ORIGINS limits them)' })),
        tenant_id: Type.Optional(Type.String({ description: 'your own customer id for the account (letters, digits, _ and -)' })),
        scopes: Type.Optional(Type.Array(Type.String(), { description: '["messaging"]: also ask for the direct messages permissions (networks with direct messages)' })),
        instance_url: Type.Optional(Type.String({
          description: `required on ${instanceNetworks.join(', ')} (and refused elsewhere): the server the account lives on, its https address or host name; only public https addresses`,
          'x-networks': instanceNetworks,
        })),
      }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Object({ auth_url: Type.String() }) }), 400: ErrorSchema, 502: ErrorSchema },
    },
    // The body is optional and documented only: the domain checks each field, so every problem comes back in `details`.
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request) => {
      const body = typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : {};
      const authUrl = await createAuthUrl(ctx.db, ctx.box, oauthSettings(ctx), request.owner.orgId, request.params.network, body);
      return { success: true, data: { auth_url: authUrl } };
    },
  });
}

/** GET /oauth/callback/:network: where the network sends the user's browser back. */
export function oauthCallbackRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { network: string }; Querystring: Record<string, string> }>('/oauth/callback/:network', {
    schema: { summary: 'OAuth callback (called by the network, not by API clients)', tags: ['social-networks'], security: [], hide: true },
    handler: async (request, reply) => {
      const outcome = await completeCallback(ctx.db, ctx.box, oauthSettings(ctx), request.params.network, request.query ?? {});
      const target = redirectTarget(outcome);
      if (target) return reply.redirect(target, 302);
      // No redirect_uri was given: the outcome is answered as JSON.
      if (outcome.kind === 'failed') throw new RequestError(outcome.status, outcome.description, { code: outcome.error });
      if (outcome.kind === 'pending') return { success: true, session: outcome.session, expiresAt: outcome.expiresAt.toISOString() };
      return { success: true, data: await getSocialAccount(ctx.db, outcome.orgId, outcome.accountId) };
    },
  });
}
