// A local X API v2 (api.x.com) for tests and `crier start --sandbox`: posts, v2 media upload,
// user lookups, OAuth 2.0 (authorize with auto-consent, code and refresh grants), with X's validation, error bodies and x-rate-limit-* headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue, type FaultSpec } from '../shared/faults.ts';
import { bearerToken, createApp, jsonBody, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { WindowLimiter, type LimitResult } from '../shared/rate.ts';
import { createControls, type XCall, type XControls } from './controls.ts';
import { forbidden, pageNotFound, rateLimitExceeded, serverError, unauthorized } from './errors.ts';
import { mediaRoutes } from './routes/media.ts';
import { oauthRoutes } from './routes/oauth.ts';
import type { XPublicRoute, XRoute } from './routes/route.ts';
import { tweetRoutes } from './routes/tweets.ts';
import { searchRoutes } from './routes/search.ts';
import { userRoutes } from './routes/users.ts';
import { XStore, type ProcessingSettings, type XWorld } from './state.ts';
import type { VocabularySetting } from './validate/description.ts';
import { firstValues, queryProblem, queryValues, requestVocabulary } from './validate/query.ts';
import { missingScopes } from './validate/scopes.ts';

export type { AddUserInput, ProcessingState, SeedTweetInput, XApp, XTweet, XTweetMetrics, XUser } from './state.ts';
export type { FaultSpec } from '../shared/faults.ts';
export type { XCall, XControls, XMediaView } from './controls.ts';
export type { FieldVocabulary, VocabularySetting } from './validate/description.ts';

/** Per-user requests per 15-minute window, from X's rate-limit documentation. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<string, number>> = {
  'POST /2/tweets': 100,
  'DELETE /2/tweets/:id': 50,
  'GET /2/tweets/:id': 900,
  'GET /2/users/me': 75,
  'GET /2/users/:id/tweets': 900,
  'GET /2/tweets/search/recent': 300,
  'POST /2/media/upload': 500,
  'POST /2/media/upload/initialize': 1875,
  'POST /2/media/upload/:id/append': 1875,
  'POST /2/media/upload/:id/finalize': 1875,
  'GET /2/media/upload': 1000,
  'POST /2/media/metadata': 500,
};
const WINDOW_MS = 15 * 60 * 1000;

export interface XEmulatorOptions extends ListenOptions {
  /** Overrides of DEFAULT_RATE_LIMITS, keyed like it. */
  rateLimits?: Record<string, number>;
  /** Video/GIF processing: pending for checkAfterSecs (1), done after durationMs (3000). */
  videoProcessing?: Partial<ProcessingSettings>;
  /** How long identical text from the same user is refused as a duplicate (default 24 h). */
  duplicateWindowMs?: number;
  /**
   * Which of X's field vocabularies the query may use: `tweet` (`tweet.fields`, `referenced_tweets`:
   * openapi.json v2.166), `post` (`post.fields`, `referenced_posts`: v2.167), or `both` (the default).
   */
  fieldVocabulary?: VocabularySetting;
}

export interface XEmulator extends XControls {
  url: string;
  close(): Promise<void>;
}

export async function startXEmulator(opts: XEmulatorOptions = {}): Promise<XEmulator> {
  const clock = new Clock();
  const world: XWorld = {
    store: new XStore(clock),
    clock,
    fieldVocabulary: opts.fieldVocabulary ?? 'both',
    duplicateWindowMs: opts.duplicateWindowMs ?? 24 * 60 * 60 * 1000,
    processing: { checkAfterSecs: 1, durationMs: 3000, manual: false, ...opts.videoProcessing },
    failNextProcessing: false,
    apps: new Map(),
    codes: new Map(),
    signedInUserId: undefined,
  };
  const limits = { ...DEFAULT_RATE_LIMITS, ...opts.rateLimits };
  const faults = new FaultQueue();
  const limiter = new WindowLimiter();
  // Chunks are ≤ 8 MB and one-shot uploads may carry a 15 MB GIF as base64.
  const app = createApp(24 * 1024 * 1024);

  const faultReply = (fault: FaultSpec, routeKey: string): Reply => {
    const base = fault.status === 401 ? unauthorized() : fault.status === 429 ? rateLimitExceeded() : serverError(fault.status);
    const rate = fault.status === 429
      ? rateHeaders({ ok: false, limit: limits[routeKey] ?? 100, remaining: 0, reset: clock.nowSecs() + WINDOW_MS / 1000, windowSecs: 900 })
      : {};
    return { status: fault.status, body: fault.body ?? base.body, headers: { ...rate, ...fault.headers } };
  };

  const calls: XCall[] = [];
  const register = (route: XRoute) => {
    const key = `${route.method} ${route.url}`;
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const auth = world.store.authenticate(bearerToken(req.headers.authorization));
        const values = queryValues(req.url);
        const query = firstValues(values);
        const recorded = (out: Reply) => {
          const json = (req.headers['content-type'] ?? '').startsWith('application/json') ? jsonBody(req.body) : undefined;
          calls.push({ method: req.method, path: req.url.split('?')[0]!, query, queryValues: values, body: json, userId: auth?.user.id, status: out.status });
          return send(reply, out);
        };
        const fault = faults.take(req.method, req.url.split('?')[0]);
        if (fault && !fault.afterHandling) return recorded(faultReply(fault, key));
        if (!auth) return recorded(unauthorized());
        const rate = limiter.consume(`${auth.user.id} ${key}`, limits[key] ?? 100, WINDOW_MS, clock.now());
        const headers = rateHeaders(rate);
        if (!rate.ok) return recorded({ ...rateLimitExceeded(), headers });
        if (missingScopes(world.fieldVocabulary, route.method, route.url, auth.scopes).length > 0) {
          return recorded({ ...forbidden('You are not permitted to perform this action.'), headers });
        }
        const refused = queryProblem(world.fieldVocabulary, route.method, route.url, values);
        if (refused) return recorded({ ...refused, headers });
        const out = await route.handler({
          user: auth.user,
          params: req.params as Record<string, string>,
          query,
          body: req.body,
          contentType: req.headers['content-type'] ?? '',
          vocabulary: requestVocabulary(world.fieldVocabulary, values),
        });
        // An answer lost on its way back: the route did its work, the client sees the fault instead.
        if (fault) return recorded(faultReply(fault, key));
        return recorded({ ...out, headers: { ...headers, ...out.headers } });
      },
    });
  };
  const registerPublic = (route: XPublicRoute) => {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = faults.take(req.method, req.url.split('?')[0]);
        if (fault) return send(reply, faultReply(fault, route.url));
        return send(reply, route.handler({ body: req.body, authorization: req.headers.authorization, query: firstValues(queryValues(req.url)) }));
      },
    });
  };

  for (const route of [...searchRoutes(world), ...tweetRoutes(world), ...userRoutes(world), ...mediaRoutes(world)]) register(route);
  for (const route of oauthRoutes(world)) registerPublic(route);
  app.setNotFoundHandler((_req, reply) => send(reply, pageNotFound()));
  app.setErrorHandler((error: { statusCode?: number }, _req, reply) => {
    const status = error.statusCode === 413 ? 413 : 500;
    return send(reply, serverError(status));
  });

  const server = await listen(app, opts);
  return { url: server.url, close: () => server.close(), ...createControls(world, calls, faults) };
}

function rateHeaders(rate: LimitResult): Record<string, string> {
  return {
    'x-rate-limit-limit': String(rate.limit),
    'x-rate-limit-remaining': String(rate.remaining),
    'x-rate-limit-reset': String(rate.reset),
  };
}
