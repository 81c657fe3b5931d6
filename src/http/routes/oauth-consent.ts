// /v1/oauth/consent: the dashboard's consent page (src/dashboard/web/consent.js) reads what an
// authorization request asks for (GET) and answers it (POST) with the signed-in user's API key. An
// approval issues a code bound to that key's organization and user; a denial sends the client
// `access_denied`. Either way the answer is where the page sends the browser next. OAuth plumbing,
// not an API for integrations: hidden from the OpenAPI document (and so from the MCP tools).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestError } from '../../core/errors.ts';
import { approvedRedirect, AuthorizationRequestError, checkAuthorizationRequest, errorRedirect, type AuthorizationParams, type AuthorizationRequest } from '../../oauth/authorization-request.ts';
import { consentDetails } from '../../oauth/consent.ts';
import { issueCode } from '../../oauth/grants.ts';
import { oauthUrls, type OAuthUrls } from '../../oauth/metadata.ts';
import { Type } from '../../validation/json-schema.ts';
import type { AppContext } from '../context.ts';

const Param = Type.Optional(Type.String({ maxLength: 2000 }));
const AuthorizationParamsSchema = {
  client_id: Param,
  redirect_uri: Param,
  response_type: Param,
  code_challenge: Param,
  code_challenge_method: Param,
  state: Param,
  resource: Param,
  scope: Param,
};

interface ConsentBody extends AuthorizationParams {
  approve: boolean;
}

export function oauthConsentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const urls = oauthUrls(ctx.config.publicBaseUrl);

  app.get<{ Querystring: AuthorizationParams }>('/v1/oauth/consent', {
    schema: { hide: true, querystring: Type.Object(AuthorizationParamsSchema) },
    handler: async (request) => {
      const authorization = await checkRequest(ctx, request.query, urls);
      return { success: true, data: await consentDetails(ctx.db, authorization, request.owner.orgId) };
    },
  });

  app.post<{ Body: ConsentBody }>('/v1/oauth/consent', {
    schema: { hide: true, body: Type.Object({ ...AuthorizationParamsSchema, approve: Type.Boolean({ description: 'true: grant the client access to this organization; false: deny' }) }) },
    handler: async (request) => {
      refuseQuotaKey(request);
      const authorization = await checkRequest(ctx, request.body, urls);
      if (!request.body.approve) {
        const back = { uri: authorization.redirectUri, state: authorization.state };
        return { success: true, data: { redirectTo: errorRedirect(back, 'access_denied', 'The user denied the request', urls) } };
      }
      const code = await issueCode(ctx.db, authorization, { orgId: request.owner.orgId, userId: request.owner.userId });
      return { success: true, data: { redirectTo: approvedRedirect(authorization, code, urls) } };
    },
  });
}

/** The request checked as at the authorization endpoint; a fault is a 400 naming the parameter. */
async function checkRequest(ctx: AppContext, params: AuthorizationParams, urls: OAuthUrls): Promise<AuthorizationRequest> {
  try {
    return await checkAuthorizationRequest(ctx.db, params, urls);
  } catch (error) {
    if (!(error instanceof AuthorizationRequestError)) throw error;
    throw new RequestError(400, `The authorization request cannot be answered: ${error.message}`, {
      code: 'invalid_authorization_request',
      details: [{ field: error.field, message: error.message }],
    });
  }
}

/** As for creating keys (routes/api-keys.ts): a key with a fixed quota must not mint a grant without one. */
function refuseQuotaKey(request: FastifyRequest): void {
  if (request.owner.fixedQuota === null) return;
  throw new RequestError(403, 'A key with a fixed quota cannot grant access to an MCP client; sign in with a key without a quota', { code: 'forbidden' });
}
