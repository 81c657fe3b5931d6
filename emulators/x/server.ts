// A local X API v2 (api.x.com) for tests and `crier start --sandbox`: posts, v2 media upload,
// user lookups, OAuth 2.0 (authorize with auto-consent, code and refresh grants), with X's validation, error bodies and x-rate-limit-* headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue, type FaultSpec } from '../shared/faults.ts';
import { bearerToken, createApp, jsonBody, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { WindowLimiter, type LimitResult } from '../shared/rate.ts';
import { describedParameters, type FieldVocabulary, type VocabularySetting } from './description.ts';
import { duplicateQueryParameter, forbidden, pageNotFound, serverError, tooManyRequests, unauthorized, unknownQueryParameter } from './errors.ts';
import { processingInfo, type ProcessingSettings, type XApp, type XPublicRoute, type XRoute, type XWorld } from './route.ts';
import { mediaRoutes } from './routes/media.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { tweetRoutes } from './routes/tweets.ts';
import { searchRoutes } from './routes/search.ts';
import { userRoutes } from './routes/users.ts';
import { XStore, type AddUserInput, type ProcessingState, type SeedTweetInput, type XTweet, type XTweetMetrics, type XUser } from './store.ts';

export type { AddUserInput, ProcessingState, SeedTweetInput, XTweet, XTweetMetrics, XUser } from './store.ts';
export type { FaultSpec } from '../shared/faults.ts';
export type { XApp } from './route.ts';
export type { FieldVocabulary, VocabularySetting } from './description.ts';

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

export interface XMediaView {
  id: string;
  mediaKey: string;
  ownerId: string;
  category: string;
  mediaType?: string;
  size: number;
  finalized: boolean;
  state?: ProcessingState;
  altText?: string;
}

export interface XCall {
  method: string;
  path: string;
  /** The first value of each query parameter. */
  query: Record<string, string | undefined>;
  /** Every value of each query parameter, in order. */
  queryValues: Record<string, string[]>;
  body: unknown;
  userId: string | undefined;
  status: number;
}

export interface XEmulator {
  url: string;
  /** Move it forward to expire tokens, finish video processing or reset rate-limit windows. */
  clock: Clock;
  close(): Promise<void>;
  /** Registers a developer app (client id, secret, callback URLs) for the authorization-code flow. */
  addApp(app: XApp): void;
  /** The user who consents on GET /i/oauth2/authorize (it redirects at once: auto-consent). */
  signIn(userId: string): void;
  /** Registers a user and an OAuth 2.0 user access token (plus an optional refresh token). */
  addUser(input: AddUserInput): XUser;
  /** Makes the token answer 401 from now on, as an expired or revoked one does. */
  expireToken(token: string): void;
  /** Every post created, in creation order (deleted ones flagged). */
  tweets(): XTweet[];
  media(): XMediaView[];
  /** A post from outside the API: another user's reply or quote, a repost, an older post. */
  addTweet(input: SeedTweetInput): XTweet;
  /** Sets a post's engagement figures (likes, reposts, impressions, private metrics). */
  setMetrics(tweetId: string, metrics: XTweetMetrics): void;
  /** Sets a user's follower and following counts. */
  setFollowers(userId: string, counts: { followers?: number; following?: number }): void;
  /** Every request behind a user token, in order: method, path, query and JSON body, and the status answered. */
  calls(): XCall[];
  /** Answers the next matching request(s) with this status instead of handling them. */
  failNext(fault: FaultSpec): void;
  /** Pins a video's processing state, overriding the clock-driven progression. */
  setMediaState(mediaId: string, state: ProcessingState): void;
  /** The next video or GIF finalized ends in `failed`. */
  failNextProcessing(): void;
  /** Switches the field vocabulary the query may use from now on (an API that changes under a running client). */
  setFieldVocabulary(setting: VocabularySetting): void;
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
    const base = fault.status === 401 ? unauthorized() : fault.status === 429 ? tooManyRequests() : serverError(fault.status);
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
        if (!rate.ok) return recorded({ ...tooManyRequests(), headers });
        if (!auth.scopes.has(route.scope)) return recorded({ ...forbidden('You are not permitted to perform this action.'), headers });
        const refused = queryProblem(world.fieldVocabulary, route, values);
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
  return {
    url: server.url,
    clock,
    close: () => server.close(),
    addApp: (app) => {
      world.apps.set(app.clientId, structuredClone(app));
    },
    signIn: (userId) => {
      world.signedInUserId = userId;
    },
    addUser: (input) => world.store.addUser(input),
    expireToken: (token) => world.store.expireToken(token),
    tweets: () => structuredClone(world.store.tweets),
    media: () =>
      [...world.store.media.values()].map((m) => ({
        id: m.id,
        mediaKey: m.mediaKey,
        ownerId: m.ownerId,
        category: m.category,
        mediaType: m.mediaType,
        size: m.size,
        finalized: m.finalized,
        state: processingInfo(world, m)?.state,
        altText: m.altText,
      })),
    addTweet: (input) => structuredClone(world.store.seedTweet(input)),
    setMetrics: (tweetId, metrics) => {
      const tweet = world.store.tweets.find((t) => t.id === tweetId);
      if (!tweet) throw new Error(`no post ${tweetId}`);
      Object.assign(tweet.metrics, metrics);
    },
    setFollowers: (userId, counts) => {
      const user = world.store.users.get(userId);
      if (!user) throw new Error(`no user ${userId}`);
      user.followersCount = counts.followers ?? user.followersCount;
      user.followingCount = counts.following ?? user.followingCount;
    },
    calls: () => structuredClone(calls),
    failNext: (fault) => faults.add(fault),
    setMediaState: (mediaId, state) => {
      const media = world.store.media.get(mediaId);
      if (!media?.processing) throw new Error(`media ${mediaId} has no processing to set`);
      media.processing.pinned = state;
    },
    failNextProcessing: () => {
      world.failNextProcessing = true;
    },
    setFieldVocabulary: (setting) => {
      world.fieldVocabulary = setting;
    },
  };
}

function rateHeaders(rate: LimitResult): Record<string, string> {
  return {
    'x-rate-limit-limit': String(rate.limit),
    'x-rate-limit-remaining': String(rate.remaining),
    'x-rate-limit-reset': String(rate.reset),
  };
}

/** Every value of every query parameter of the raw request URL, repeated ones kept in order. */
function queryValues(url: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of new URL(url, 'http://emulator').searchParams) (out[name] ??= []).push(value);
  return out;
}

function firstValues(values: Record<string, string[]>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(values).map(([name, list]) => [name, list[0]]));
}

/**
 * X's refusal of the query before the operation runs: a parameter the operation's description
 * does not name (path ones are listed too, as X lists them), or one given more than once.
 */
function queryProblem(setting: VocabularySetting, route: XRoute, values: Record<string, string[]>): Reply | undefined {
  const described = describedParameters(setting, route.method, route.url);
  if (!described) return undefined;
  const allowed = described.map((p) => p.name);
  const queryNames = new Set(described.filter((p) => p.in === 'query').map((p) => p.name));
  for (const [name, list] of Object.entries(values)) {
    if (!queryNames.has(name)) return unknownQueryParameter(name, list, allowed);
    if (list.length > 1) return duplicateQueryParameter(name, list);
  }
  return undefined;
}

/** A request in the `both` setting speaks of posts when it names `post.fields`. */
function requestVocabulary(setting: VocabularySetting, values: Record<string, string[]>): FieldVocabulary {
  if (setting !== 'both') return setting;
  return values['post.fields'] && !values['tweet.fields'] ? 'post' : 'tweet';
}
