// The Fastify application: everything HTTP, wired once. Domain logic lives outside http/.
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { dashboardRoutes } from '../dashboard/plugin.ts';
import { addCrierVocabulary } from '../validation/ajv.ts';
import { createAuthFailureGuard } from './auth-failures.ts';
import { installAuth, installSubscriptionGate } from './auth.ts';
import { installBodyDrain } from './body-drain.ts';
import type { AppContext } from './context.ts';
import { earlyErrorOptions, installErrorHandling } from './errors.ts';
import { installInputScan } from './input-scan.ts';
import { lazySchemaCompilers } from './lazy-schemas.ts';
import { installMetrics } from './metrics.ts';
import { installOperationIds } from './openapi-ids.ts';
import { createCounterStore, installRateLimit } from '../limits/request-hook.ts';
import { apiKeysRoutes } from './routes/api-keys.ts';
import { approvalsRoutes } from './routes/approvals.ts';
import { settingsRoutes } from './routes/settings.ts';
import { tenantSettingsRoutes } from './routes/tenant-settings.ts';
import { installRoleCheck } from '../orgs/roles.ts';
import { billingRoutes } from './routes/billing.ts';
import { healthRoutes } from './routes/health.ts';
import { inboundRoutes } from './routes/inbound.ts';
import { conversationsRoutes } from './routes/conversations.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { oauthAuthorizeRoutes } from './routes/oauth-authorize.ts';
import { oauthConsentRoutes } from './routes/oauth-consent.ts';
import { oauthMetadataRoutes } from './routes/oauth-metadata.ts';
import { oauthRegisterRoutes } from './routes/oauth-register.ts';
import { oauthRevokeRoutes } from './routes/oauth-revoke.ts';
import { oauthTokenRoutes } from './routes/oauth-token.ts';
import { mediaRoutes, publicMediaRoutes } from './routes/media.ts';
import { postAnalyticsRoutes } from './routes/post-analytics.ts';
import { postHistoryRoutes } from './routes/post-history.ts';
import { postRemoteRoutes } from './routes/post-remote.ts';
import { postRepliesRoutes } from './routes/post-replies.ts';
import { sandboxCommentsRoutes } from './routes/sandbox-comments.ts';
import { sandboxMessagesRoutes } from './routes/sandbox-messages.ts';
import { ReplyCache } from '../engagement/replies.ts';
import { socialAccountImportsRoutes } from './routes/social-account-imports.ts';
import { socialAccountMetricsRoutes } from './routes/social-account-metrics.ts';
import { postsRoutes } from './routes/posts.ts';
import { postsBulkRoutes } from './routes/posts-bulk.ts';
import { queuesRoutes } from './routes/queues.ts';
import { recurrencesRoutes } from './routes/recurrences.ts';
import { evergreenRoutes } from './routes/evergreen.ts';
import { sandboxInboxRoutes } from './routes/sandbox-inbox.ts';
import { socialAccountListingsRoutes } from './routes/social-account-listings.ts';
import { socialAccountsRoutes } from './routes/social-accounts.ts';
import { pendingConnectionsRoutes } from './routes/pending-connections.ts';
import { oauthCallbackRoutes, socialNetworksRoutes } from './routes/social-networks.ts';
import { usageRoutes } from './routes/usage.ts';
import { webhooksRoutes } from './routes/webhooks.ts';
import { eventsRoutes } from './routes/events.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const CORS_PATH = /^\/(v1|media-uploads)\//;
const CORS = {
  origin: true,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id'],
  exposedHeaders: ['idempotency-replayed', 'retry-after', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
};
/**
 * What a browser-based MCP client (MCP Inspector in direct mode, a web agent) calls itself: the OAuth
 * discovery documents (with the other well-known URLs a client probes, so that it can read their 404
 * and go on), registration, the token and revocation endpoints, and /mcp. /oauth/authorize
 * and the consent endpoint are not among them: a person's browser navigates to the first, and the
 * second is the dashboard's own, same-origin page.
 */
const MCP_CORS_PATH = /^\/(\.well-known\/(oauth-[a-z-]+|openid-configuration)(\/[^?]*)?|oauth\/(register|token|revoke)|mcp)\/?(\?|$)/;
/** The consent endpoint is under /v1, but it is never called cross-origin: only the dashboard's page calls it. */
const NO_CORS_PATH = /^\/v1\/oauth\//;
const MCP_CORS = {
  origin: true,
  methods: ['GET', 'POST', 'DELETE'],
  allowedHeaders: ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id', 'x-request-id'],
  exposedHeaders: ['www-authenticate', 'mcp-session-id', 'mcp-protocol-version', 'retry-after', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
};

export async function buildApp(ctx: AppContext, logger: Logger): Promise<FastifyInstance> {
  const compilers = lazySchemaCompilers();
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: ctx.config.bodyLimit,
    // `__proto__` and `constructor` are valid JSON keys: kept as own properties by the parser, then
    // dropped with a warning like any unknown key (validation/strip.ts), never followed or merged.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    ...earlyErrorOptions,
    // The client address (failed-authentication limits, logs) behind a reverse proxy: CRIER_TRUST_PROXY.
    trustProxy: ctx.config.trustProxy,
    // `/v1/posts/` is `/v1/posts`: hosted clients call collections with a trailing slash.
    routerOptions: { ignoreTrailingSlash: true },
    // A caller's request id is kept (so logs can be correlated across services); otherwise a new one.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true }, onCreate: addCrierVocabulary },
    // Each route's schemas compile on its first request, not at start (lazy-schemas.ts).
    schemaController: { compilersFactory: compilers.compilersFactory },
  });
  compilers.attach(app);
  installOperationIds(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  acceptEmptyJsonOnDelete(app);
  installInputScan(app);
  installBodyDrain(app);
  // Stopping (SIGTERM, a test's close): Node's server.close() ends only the connections idle at that
  // moment; a keep-alive connection whose request was still in flight would then hold close() for the
  // keep-alive timeout (72 s). Until the server has closed, connections are ended as they fall idle.
  app.addHook('preClose', (done) => {
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50).unref();
    app.server.once('close', () => clearInterval(sweep));
    done();
  });
  const metrics = await installMetrics(app, ctx.config.metricsToken);

  // Browsers may call the API (/v1, with its key), the signed upload URL and MCP's OAuth and /mcp
  // endpoints from any origin; no cookies are involved, so reflecting the origin grants nothing the
  // caller's key or token does not.
  await app.register(cors, { delegator: (request, done) => done(null, corsFor(request.url ?? '')) });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Crier API', version: '1.0.0', description: `Publish and schedule posts on social networks through one API: ${ctx.networks.all.map((network) => network.label).join(', ')}.` },
      servers: [{ url: ctx.config.publicBaseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  healthRoutes(app, ctx, metrics);
  // The dashboard: a browser client of the public /v1 API, served from the package itself.
  dashboardRoutes(app, ctx.config.publicBaseUrl);
  // Outside /v1, no API key: the upload PUT (signed URL) and public media files (unguessable token).
  await publicMediaRoutes(app, ctx);
  billingRoutes(app, ctx);
  // Outside /v1, no API key: the network sends the user's browser back here; the single-use state authenticates it.
  oauthCallbackRoutes(app, ctx);
  // Outside /v1, no API key: the networks' webhooks, signed with the app secret (src/inbound/).
  await inboundRoutes(app, ctx);
  // Outside /v1, no API key: POST /mcp's OAuth discovery, registration, authorization and token endpoints (src/oauth/).
  oauthMetadataRoutes(app, ctx);
  await oauthRegisterRoutes(app, ctx);
  await oauthAuthorizeRoutes(app, ctx);
  await oauthTokenRoutes(app, ctx);
  await oauthRevokeRoutes(app, ctx);

  await app.register(async (v1) => {
    const counters = await createCounterStore(ctx.config, v1);
    v1.addHook('onClose', () => counters.close());
    installAuth(v1, ctx.db, createAuthFailureGuard(counters, ctx.config.authFailures));
    installRateLimit(v1, ctx, counters);
    installSubscriptionGate(v1, ctx.config.billingUrl);
    // After the gate: a key's role decides which routes it may call (orgs/roles.ts holds the table).
    installRoleCheck(v1);
    apiKeysRoutes(v1, ctx);
    postsRoutes(v1, ctx);
    postsBulkRoutes(v1, ctx);
    approvalsRoutes(v1, ctx);
    settingsRoutes(v1, ctx);
    tenantSettingsRoutes(v1, ctx);
    queuesRoutes(v1, ctx);
    recurrencesRoutes(v1, ctx);
    evergreenRoutes(v1, ctx);
    const replies = new ReplyCache();
    postRepliesRoutes(v1, ctx, replies);
    postAnalyticsRoutes(v1, ctx);
    postRemoteRoutes(v1, ctx);
    postHistoryRoutes(v1, ctx);
    socialAccountsRoutes(v1, ctx);
    socialAccountListingsRoutes(v1, ctx);
    socialAccountMetricsRoutes(v1, ctx);
    socialAccountImportsRoutes(v1, ctx);
    pendingConnectionsRoutes(v1, ctx);
    socialNetworksRoutes(v1, ctx);
    webhooksRoutes(v1, ctx);
    eventsRoutes(v1, ctx);
    conversationsRoutes(v1, ctx);
    mediaRoutes(v1, ctx);
    usageRoutes(v1, ctx);
    mcpRoutes(v1, ctx);
    oauthConsentRoutes(v1, ctx);
    await sandboxInboxRoutes(v1, ctx);
    sandboxCommentsRoutes(v1, ctx, replies);
    sandboxMessagesRoutes(v1, ctx);
  });
  return app;
}

function corsFor(url: string) {
  if (MCP_CORS_PATH.test(url)) return MCP_CORS;
  return CORS_PATH.test(url) && !NO_CORS_PATH.test(url) ? CORS : { origin: false };
}

/**
 * Browser clients send `Content-Type: application/json` on every call, a DELETE with no body too:
 * that DELETE carries nothing to parse rather than a malformed body. Every other empty JSON body is
 * still the 400 it was.
 */
function acceptEmptyJsonOnDelete(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && request.method === 'DELETE') done(null, undefined);
    else parseJson(request, body as string, done);
  });
}
