// Operational endpoints, outside /v1 and without an API key: /healthz is open (it tells only whether
// the database answers); /metrics describes the server's traffic, so it requires its own bearer token
// (CRIER_METRICS_TOKEN) and is not served at all without one.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RequestError } from '../../core/errors.ts';
import { bearerToken } from '../auth.ts';
import type { AppContext } from '../context.ts';
import type { Metrics } from '../metrics.ts';

/** `metrics`: undefined without CRIER_METRICS_TOKEN. */
export function healthRoutes(app: FastifyInstance, ctx: AppContext, metrics: Metrics | undefined): void {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', error: 'database unreachable' });
    }
  });

  const token = ctx.config.metricsToken;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!token || !metrics) throw new RequestError(404, 'Metrics are not served: set CRIER_METRICS_TOKEN and scrape with "Authorization: Bearer <token>"', { code: 'not_found' });
    if (!sameSecret(bearerToken(request), token)) {
      throw new RequestError(401, 'Missing or wrong metrics token: send "Authorization: Bearer <CRIER_METRICS_TOKEN>"', { code: 'unauthorized', headers: { 'www-authenticate': 'Bearer' } });
    }
    reply.header('content-type', metrics.contentType);
    return metrics.render();
  });
}

/** Constant-time comparison (of digests, so that lengths do not leak either). */
function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
