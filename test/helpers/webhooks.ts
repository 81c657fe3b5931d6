// What the webhook tests share: a Crier API on its own database, real local HTTPS receivers (their
// self-signed certificate trusted through CRIER_EXTRA_CA_FILE, loopback allowed through
// CRIER_ALLOW_LOOPBACK_FETCH, as an operator would never set them), and a deliverer started in this
// process on the same configuration, with the schedule shrunk by CRIER_WEBHOOK_TIME_SCALE.
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { sandboxInboxUrl } from '../../src/sandbox/inbox.ts';
import { startWebhookDeliverer, type WebhookDeliverer } from '../../src/webhooks/worker.ts';
import { startTestServer, TEST_SECRET_KEY_HEX, type TestOrg, type TestServer } from './harness.ts';
import { selfSignedCertificate, startHttpsServer, type TestHttpsServer } from './https-server.ts';

/** Attempt timeout 300 ms; retries after 100 ms, 300 ms, 900 ms, 2.7 s, 3 s (each up to +10%). */
export const TIME_SCALE = 0.01;

export interface Arrival {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookStack {
  server: TestServer;
  receiver: TestHttpsServer;
  /** What a `crier worker` child process needs to use the same database, CA and schedule. */
  env: Record<string, string>;
  startDeliverer(overrides?: Partial<Config>): Promise<WebhookDeliverer>;
  /** Serves `path` with `respond` and records every request that reaches it, with its arrival time. */
  receive(path: string, respond?: (req: IncomingMessage, res: ServerResponse, arrival: Arrival) => unknown): Arrival[];
  createWebhook(org: TestOrg, body: Record<string, unknown>): Promise<any>;
  attempts(org: TestOrg, webhookId: number, query?: string): Promise<any[]>;
  close(): Promise<void>;
}

export async function startWebhookStack(extraEnv: Record<string, string> = {}): Promise<WebhookStack> {
  const receiver = await startHttpsServer();
  const caFile = await receiver.caFile();
  const env = { CRIER_ALLOW_LOOPBACK_FETCH: 'true', CRIER_EXTRA_CA_FILE: caFile, CRIER_WEBHOOK_TIME_SCALE: String(TIME_SCALE), ...extraEnv };
  const server = await startTestServer(env);
  const deliverers: WebhookDeliverer[] = [];
  return {
    server,
    receiver,
    env: { ...env, DATABASE_URL: server.databaseUrl, CRIER_SECRET_KEY: TEST_SECRET_KEY_HEX, LOG_LEVEL: 'warn' },
    async startDeliverer(overrides = {}) {
      const config = { ...server.config, ...overrides };
      const deliverer = await startWebhookDeliverer(config, { db: server.db, box: server.box, logger: createLogger('silent'), inboxUrl: sandboxInboxUrl(config) });
      deliverers.push(deliverer);
      return deliverer;
    },
    receive(route, respond = (_req, res) => res.writeHead(200).end('ok')) {
      const arrivals: Arrival[] = [];
      receiver.route(route, (req, res, body) => {
        const arrival = { at: Date.now(), headers: req.headers, body: body.toString('utf8') };
        arrivals.push(arrival);
        return respond(req, res, arrival);
      });
      return arrivals;
    },
    async createWebhook(org, body) {
      const res = await server.request('POST', '/v1/webhooks', { key: org.key, body });
      if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async attempts(org, webhookId, query = '') {
      const res = await server.request('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100${query}`, { key: org.key });
      if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async close() {
      for (const deliverer of deliverers) await deliverer.stop();
      await server.close();
      await receiver.close();
    },
  };
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls `check` until it returns a truthy value, and returns that value. */
export async function waitUntil<T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver on a port of our choosing, so it can go down and come back at the same URL. */
export async function listenOn(port: number, handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Server> {
  const { key, cert } = await selfSignedCertificate();
  const server = createServer({ key, cert }, async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    handler(req, res, Buffer.concat(chunks).toString('utf8'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
