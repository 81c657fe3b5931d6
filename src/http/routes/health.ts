// Operational endpoints, outside /v1 and without authentication.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { metricsRegistry } from '../metrics.ts';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', error: 'database unreachable' });
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });
}
