// POST /oauth/token: the token endpoint (RFC 6749 §3.2), form-encoded. The authorization_code grant
// (with the PKCE verifier) starts a grant, the refresh_token grant rotates its tokens (src/oauth/
// grants.ts). Public clients name themselves with client_id and hold no secret. No API key; hidden
// from the OpenAPI document; every refusal is RFC 6749's {error, error_description}.
import type { FastifyInstance } from 'fastify';
import { answerOAuthErrors, invalidRequest, OAuthError } from '../../oauth/errors.ts';
import { acceptForms, formOf, required, type Form } from '../../oauth/form.ts';
import { exchangeCode, refreshGrant, type TokenResponse } from '../../oauth/grants.ts';
import { oauthUrls, TOKEN_PATH, type OAuthUrls } from '../../oauth/metadata.ts';
import type { AppContext } from '../context.ts';

export async function oauthTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const urls = oauthUrls(ctx.config.publicBaseUrl);
  await app.register(async (scope) => {
    answerOAuthErrors(scope);
    acceptForms(scope);
    scope.post(TOKEN_PATH, { schema: { hide: true } }, async (request, reply) => {
      const tokens = await grant(ctx, formOf(request.body), urls);
      // RFC 6749 §5.1: tokens are never cached.
      return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(tokens);
    });
  });
}

async function grant(ctx: AppContext, form: Form, urls: OAuthUrls): Promise<TokenResponse> {
  const grantType = form.grant_type;
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    if (grantType === undefined) throw invalidRequest('grant_type is required');
    throw new OAuthError('unsupported_grant_type', 'grant_type must be "authorization_code" or "refresh_token"');
  }
  const clientId = required(form, 'client_id');
  if (grantType === 'authorization_code') {
    const exchange = { clientId, code: required(form, 'code'), redirectUri: required(form, 'redirect_uri'), codeVerifier: required(form, 'code_verifier'), resource: form.resource };
    return exchangeCode(ctx.db, exchange, urls);
  }
  return refreshGrant(ctx.db, { clientId, refreshToken: required(form, 'refresh_token'), resource: form.resource }, urls);
}
