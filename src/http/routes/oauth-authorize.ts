// GET /oauth/authorize: the authorization endpoint. The request is checked (src/oauth/
// authorization-request.ts) and the browser sent on to the dashboard's consent page with the same
// parameters, where a signed-in user approves or denies (routes/oauth-consent.ts). A fault the
// client may hear of goes back to its redirect URI; an unknown client or redirect URI is answered
// here. No API key: the browser arrives from the client. Hidden from the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import { AuthorizationRequestError, checkAuthorizationRequest, type AuthorizationParams } from '../../oauth/authorization-request.ts';
import { answerOAuthErrors } from '../../oauth/errors.ts';
import { AUTHORIZE_PATH, CONSENT_PAGE, oauthUrls } from '../../oauth/metadata.ts';
import type { AppContext } from '../context.ts';

export async function oauthAuthorizeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const urls = oauthUrls(ctx.config.publicBaseUrl);
  await app.register(async (scope) => {
    answerOAuthErrors(scope);
    scope.get<{ Querystring: AuthorizationParams }>(AUTHORIZE_PATH, { schema: { hide: true } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        await checkAuthorizationRequest(ctx.db, request.query, urls);
      } catch (error) {
        if (error instanceof AuthorizationRequestError && error.redirectTo) return reply.redirect(error.redirectTo, 302);
        throw error;
      }
      // The parameters ride in the page's fragment: the browser keeps it through the redirect, and
      // never sends it to a server (no log sees the state or the challenge).
      const query = request.url.slice(request.url.indexOf('?') + 1);
      return reply.redirect(`${CONSENT_PAGE}?${query}`, 302);
    });
  });
}
