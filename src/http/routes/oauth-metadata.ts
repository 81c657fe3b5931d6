// The OAuth discovery documents of POST /mcp, public: the protected resource's metadata (RFC 9728)
// at the path-aware URL the 401's WWW-Authenticate names and at the root one (clients that try only
// the root), and the authorization server's metadata (RFC 8414). OAuth, not part of the /v1 API:
// hidden from the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import { authorizationServerMetadata, oauthUrls, protectedResourceMetadata, RESOURCE_METADATA_PATH } from '../../oauth/metadata.ts';
import type { AppContext } from '../context.ts';

export function oauthMetadataRoutes(app: FastifyInstance, ctx: AppContext): void {
  const urls = oauthUrls(ctx.config.publicBaseUrl);
  const resource = protectedResourceMetadata(urls);
  const server = authorizationServerMetadata(urls);
  // Documents that change only with the configuration: a client may keep them an hour.
  const cache = 'public, max-age=3600';
  app.get(RESOURCE_METADATA_PATH, { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', cache).send(resource));
  app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', cache).send(resource));
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', cache).send(server));
}
