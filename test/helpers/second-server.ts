// A second API process on the same database as a test server (what an operator runs behind a load
// balancer): the limits tests and the failed-authentication tests count across the two.
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { NETWORK_LIST, createNetworkRegistry } from '../../src/networks/registry.ts';
import { createPool } from '../../src/db/pool.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/log.ts';
import { createPublishWaker } from '../../src/publishing/wake.ts';
import type { ApiResponse, TestServer } from './harness.ts';

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
