// Prometheus metrics at /metrics: process defaults plus request counts and latencies per route.
// prom-client loads, and requests are measured, only where CRIER_METRICS_TOKEN is set: without the
// token /metrics is not served, so nothing would ever read what was collected (lazy.ts).
import type { FastifyInstance } from 'fastify';
import { lazy } from '../lazy.ts';

/** What /metrics answers. */
export interface Metrics {
  contentType: string;
  render(): Promise<string>;
}

const promClient = lazy('prom-client (the metrics of CRIER_METRICS_TOKEN)', () => import('prom-client'));

export async function installMetrics(app: FastifyInstance, token: string | undefined): Promise<Metrics | undefined> {
  if (!token) return undefined;
  const { Histogram, Registry, collectDefaultMetrics } = await promClient();
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'crier_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    requestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  return { contentType: registry.contentType, render: () => registry.metrics() };
}
