// POST /oauth/register: dynamic client registration (RFC 7591) for MCP clients, public clients only
// (src/oauth/clients.ts). No API key: a client registers before anyone has signed in. OAuth, not
// part of the /v1 API: hidden from the OpenAPI document, errors in RFC 7591's shape.
import type { FastifyInstance } from 'fastify';
import { registerClient } from '../../oauth/clients.ts';
import { answerOAuthErrors } from '../../oauth/errors.ts';
import { REGISTER_PATH } from '../../oauth/metadata.ts';
import type { AppContext } from '../context.ts';

export async function oauthRegisterRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    answerOAuthErrors(scope);
    // Any other type of body is read as nothing, and refused as metadata that is not a JSON object.
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    scope.post(REGISTER_PATH, { schema: { hide: true } }, async (request, reply) => {
      const registered = await registerClient(ctx.db, request.body);
      return reply.status(201).header('cache-control', 'no-store').send(registered);
    });
  });
}
