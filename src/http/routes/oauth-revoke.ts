// POST /oauth/revoke: token revocation (RFC 7009) for MCP clients that sign out, form-encoded like
// the token endpoint (src/oauth/revocation.ts). The client names itself with client_id; `token_type_hint`
// is not needed, since one lookup by the token's hash finds either kind. 200 with an empty body for
// any token that now no longer works, known or not (§2.2). No API key; hidden from the OpenAPI
// document; refusals in RFC 6749's {error, error_description}.
import type { FastifyInstance } from 'fastify';
import { answerOAuthErrors } from '../../oauth/errors.ts';
import { acceptForms, formOf, required } from '../../oauth/form.ts';
import { REVOKE_PATH } from '../../oauth/metadata.ts';
import { revokeToken } from '../../oauth/revocation.ts';
import type { AppContext } from '../context.ts';

export async function oauthRevokeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    answerOAuthErrors(scope);
    acceptForms(scope);
    scope.post(REVOKE_PATH, { schema: { hide: true } }, async (request, reply) => {
      const form = formOf(request.body);
      await revokeToken(ctx.db, required(form, 'client_id'), required(form, 'token'));
      return reply.status(200).header('cache-control', 'no-store').send();
    });
  });
}
