// POST /oauth/token: the token endpoint (RFC 6749 §3.2), form-encoded. The authorization_code grant
// (with the PKCE verifier) starts a grant, the refresh_token grant rotates its tokens (src/oauth/
// grants.ts). Public clients name themselves with client_id and hold no secret. No API key; hidden
// from the OpenAPI document; every refusal is RFC 6749's {error, error_description}.
import type { FastifyInstance } from 'fastify';
import { answerOAuthErrors, invalidRequest, OAuthError } from '../../oauth/errors.ts';
import { exchangeCode, refreshGrant, type TokenResponse } from '../../oauth/grants.ts';
import { oauthUrls, TOKEN_PATH, type OAuthUrls } from '../../oauth/metadata.ts';
import type { AppContext } from '../context.ts';

type Form = Record<string, string>;

export async function oauthTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const urls = oauthUrls(ctx.config.publicBaseUrl);
  await app.register(async (scope) => {
    answerOAuthErrors(scope);
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    // Any other body (JSON included) is read as nothing, and refused below as not a form.
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    scope.post(TOKEN_PATH, { schema: { hide: true } }, async (request, reply) => {
      const form = request.body as Form | undefined;
      if (!form || typeof form !== 'object') throw invalidRequest('Send the parameters as application/x-www-form-urlencoded');
      const tokens = await grant(ctx, form, urls);
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

function required(form: Form, name: string): string {
  const value = form[name];
  if (!value) throw invalidRequest(`${name} is required`);
  return value;
}

/** The form's parameters; one given twice is refused (RFC 6749 §3.2). */
function parseForm(body: string): Form {
  const form: Form = Object.create(null);
  for (const [name, value] of new URLSearchParams(body)) {
    if (name in form) throw invalidRequest(`${name} is given more than once`);
    form[name] = value;
  }
  return form;
}
