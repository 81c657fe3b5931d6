// Helpers of the limits tests: reading the rate-limit headers, and a second API process on the same
// database as a test server (what an operator runs behind a load balancer).
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { NETWORK_LIST, createNetworkRegistry } from '../../src/networks/registry.ts';
import { createPool } from '../../src/db/pool.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/log.ts';
import { createPublishWaker } from '../../src/publishing/wake.ts';
import type { ApiResponse, TestServer } from '../helpers/harness.ts';

export interface RateHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  reset: number | undefined;
  retryAfter: number | undefined;
}

export function rateHeaders(res: ApiResponse): RateHeaders {
  const number = (name: string) => {
    const value = res.headers.get(name);
    return value === null ? undefined : Number(value);
  };
  return { limit: number('x-ratelimit-limit'), remaining: number('x-ratelimit-remaining'), reset: number('x-ratelimit-reset'), retryAfter: number('retry-after') };
}

export interface SecondServer {
  request(method: string, path: string, key: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

/** Another Crier API on `first`'s database, with its own pool, counters and Redis connection. */
export async function startSecondServer(first: TestServer, env: Record<string, string>): Promise<SecondServer> {
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: first.databaseUrl, ...env }, NETWORK_LIST);
  const db = createPool(first.databaseUrl, 5);
  const waker = createPublishWaker(db);
  const app: FastifyInstance = await buildApp({ config, db, waker, box: first.box, networks: createNetworkRegistry(config) }, createLogger('silent'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    async request(method, path, key) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await app.close();
      await waker.close();
      await db.end();
    },
  };
}

/** Seconds since the epoch, as X-RateLimit-Reset counts them. */
export function nowSeconds(): number {
  return Date.now() / 1000;
}
