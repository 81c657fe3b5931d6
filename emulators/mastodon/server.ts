// A local Mastodon instance (its REST API: https://docs.joinmastodon.org/methods/) for tests and
// `crier start --sandbox`: accounts with access tokens, media processed in the background, statuses
// with Idempotency-Key, polls, replies and deletion. Mastodon publishes no machine-readable description
// of its API: every shape is written from the documentation (README.md lists each source).
import { Clock } from '../shared/clock.ts';
import { bearerToken, createApp, firstValues, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { mastodonControls, defaultConfiguration, type MastodonControls } from './controls.ts';
import { invalidToken, notFound, outsideScopes, revokedToken, tooManyRequests, unprocessable } from './errors.ts';
import { accountStatuses, showAccount, verifyCredentials } from './routes/accounts.ts';
import { instance } from './routes/instance.ts';
import { mastodonOAuthRoutes, type MastodonOAuthControls } from './routes/oauth.ts';
import { createMedia, showMedia } from './routes/media.ts';
import { createStatus, deleteStatus, editStatus, showStatus, statusContext } from './routes/statuses.ts';
import { accountByToken, type Account, type MastodonWorld } from './state.ts';
import { paramsOf, type Params } from './validate.ts';

export type { Account, StoredMedia, StoredStatus, InstanceConfiguration } from './state.ts';
export type { AddAccountInput } from './controls.ts';

export interface MastodonEmulator extends MastodonControls, MastodonOAuthControls {
  url: string;
  close(): Promise<void>;
}

/** A default instance's largest upload (99 MB video) and its multipart framing. */
const BODY_LIMIT = 100 * 1024 * 1024;
/** https://docs.joinmastodon.org/api/rate-limits/: 300 calls per 5 minutes per account. */
const WINDOW_MS = 5 * 60_000;
const PER_WINDOW = 300;

interface Call {
  account: Account;
  params: Params;
  query: Record<string, string | undefined>;
  path: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

type Handler = (world: MastodonWorld, call: Call) => Reply;

/** Each method with the OAuth scope its page names (https://docs.joinmastodon.org/methods/). */
const ROUTES: { method: string; url: string; scope: string; handler: Handler }[] = [
  { method: 'GET', url: '/api/v1/accounts/verify_credentials', scope: 'read:accounts', handler: (w, c) => verifyCredentials(w, c.account) },
  { method: 'GET', url: '/api/v1/accounts/:id/statuses', scope: 'read:statuses', handler: (w, c) => accountStatuses(w, c.account, c.path.id!, c.query) },
  { method: 'POST', url: '/api/v2/media', scope: 'write:media', handler: (w, c) => createMedia(w, c.account, c.params) },
  { method: 'GET', url: '/api/v1/media/:id', scope: 'write:media', handler: (w, c) => showMedia(w, c.account, c.path.id!) },
  { method: 'POST', url: '/api/v1/statuses', scope: 'write:statuses', handler: (w, c) => createStatus(w, c.account, c.params, headerOf(c.headers['idempotency-key'])) },
  { method: 'GET', url: '/api/v1/statuses/:id', scope: 'read:statuses', handler: (w, c) => showStatus(w, c.account, c.path.id!) },
  { method: 'GET', url: '/api/v1/statuses/:id/context', scope: 'read:statuses', handler: (w, c) => statusContext(w, c.account, c.path.id!) },
  { method: 'PUT', url: '/api/v1/statuses/:id', scope: 'write:statuses', handler: (w, c) => editStatus(w, c.account, c.path.id!, c.params) },
  { method: 'GET', url: '/api/v1/accounts/:id', scope: 'read:accounts', handler: (w, c) => showAccount(w, c.path.id!) },
  { method: 'DELETE', url: '/api/v1/statuses/:id', scope: 'write:statuses', handler: (w, c) => deleteStatus(w, c.account, c.path.id!) },
];

/** A granular scope is granted by itself or by its top-level one (`write` covers `write:statuses`). */
const granted = (account: Account, scope: string) => account.scopes.includes(scope) || account.scopes.includes(scope.split(':')[0]!);

const headerOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export interface MastodonEmulatorOptions extends ListenOptions {
  /** The instance's domain, as GET /api/v2/instance answers it (default: the host it listens on). */
  domain?: string;
}

export async function startMastodonEmulator(opts: MastodonEmulatorOptions = {}): Promise<MastodonEmulator> {
  const world: MastodonWorld = {
    clock: new Clock(), origin: '', ...(opts.domain ? { domain: opts.domain } : {}), configuration: defaultConfiguration(), accounts: new Map(), media: new Map(), statuses: new Map(),
    idempotency: new Map(), nextId: 0, processingPolls: 0, holdProcessing: false, rateLimited: 0, rateLimitResetMs: undefined, stalls: new Map(), windows: new Map(),
  };
  const app = createApp(BODY_LIMIT);
  app.get('/api/v2/instance', (_req, reply) => send(reply, instance(world)));
  const oauth = mastodonOAuthRoutes(app, world);
  for (const route of ROUTES) {
    app.route({
      method: route.method as 'GET',
      url: route.url,
      handler: async (req, reply) => {
        const token = bearerToken(req.headers.authorization);
        const account = token ? accountByToken(world, token) : undefined;
        if (!account) return send(reply, invalidToken());
        if (account.revoked) return send(reply, revokedToken());
        if (!granted(account, route.scope)) return send(reply, outsideScopes());
        const limited = rateLimit(world, token!);
        if (limited.status === 429) return send(reply, limited);
        const params = await paramsOf(req.body, req.headers['content-type']);
        if (!params) return send(reply, unprocessable('Validation failed: the request body could not be read'));
        const out = route.handler(world, { account, params, query: firstValues(req.query), path: req.params as Record<string, string>, headers: req.headers });
        await stall(world, `${route.method} ${route.url}`);
        return send(reply, { ...out, headers: { ...limited.headers, ...out.headers } });
      },
    });
  }
  app.setNotFoundHandler((_req, reply) => send(reply, notFound()));
  const server = await listen(app, opts);
  world.origin = server.url;
  return { url: server.url, close: server.close, ...mastodonControls(world), ...oauth };
}

/** Holds the answer of a call a test asked to stall (controls: stallAnswer). */
async function stall(world: MastodonWorld, route: string): Promise<void> {
  const wanted = world.stalls.get(route);
  if (!wanted) return;
  if (wanted.skip > 0) {
    wanted.skip -= 1;
    return;
  }
  world.stalls.delete(route);
  await new Promise((resolve) => setTimeout(resolve, wanted.ms));
}

/**
 * The rate-limit headers of every authenticated answer (https://docs.joinmastodon.org/api/rate-limits/):
 * X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset ("Timestamp when your rate limit will
 * reset", ISO 8601); past the limit, or when a test asks, 429 "Too many requests".
 */
function rateLimit(world: MastodonWorld, token: string): Reply {
  const now = world.clock.now();
  let window = world.windows.get(token);
  if (!window || now - window.start >= WINDOW_MS) world.windows.set(token, (window = { start: now, count: 0 }));
  window.count += 1;
  const headers = {
    'x-ratelimit-limit': String(PER_WINDOW),
    'x-ratelimit-remaining': String(Math.max(0, PER_WINDOW - window.count)),
    'x-ratelimit-reset': new Date(window.start + WINDOW_MS).toISOString(),
  };
  if (world.rateLimited > 0) {
    world.rateLimited -= 1;
    const reset = world.rateLimitResetMs === undefined ? headers['x-ratelimit-reset'] : new Date(now + world.rateLimitResetMs).toISOString();
    return tooManyRequests({ ...headers, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
  }
  return window.count > PER_WINDOW ? tooManyRequests(headers) : { status: 200, headers };
}
