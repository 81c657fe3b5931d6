// A local Pinterest (API v5) for tests and `crier start --sandbox`: the OAuth consent page of
// www.pinterest.com (auto-consent) and POST /v5/oauth/token (routes/oauth.ts), the user's account
// (routes/user-account.ts), boards, pins, analytics and video media with their upload URL
// (routes/), held to the vendored description (validate.ts), with Pinterest's {code, message} errors
// (errors.ts) and the controls tests steer it by (controls.ts). This file only wires them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { withMediaResponse, type FetchMedia } from '../shared/media-fetch.ts';
import { oauthControls, OAuthServer, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { WindowLimiter } from '../shared/rate.ts';
import { pinterestControls, type PinterestPublishingControls, type PinterestUserControls } from './controls.ts';
import { faultBody, routeNotFound, serverError } from './errors.ts';
import { registerAnalyticsRoutes } from './routes/analytics.ts';
import { registerBoardRoutes } from './routes/boards.ts';
import type { ApiContext, Handler, Route } from './routes/common.ts';
import { registerMediaRoutes } from './routes/media.ts';
import { registerOAuthRoutes } from './routes/oauth.ts';
import { registerPinRoutes } from './routes/pins.ts';
import { registerUserAccountRoutes } from './routes/user-account.ts';
import { PinterestState } from './state.ts';

export { PINTEREST_SCOPES } from './routes/oauth.ts';
export type { AddPinterestUserInput, PinterestPublishingControls } from './controls.ts';
export type { PinterestAccountType, PinterestUser, TokenRequest } from './state.ts';

/** 30 days. */
export const PINTEREST_ACCESS_SECS = 30 * 24 * 3600;
/** Continuous refresh tokens: 60 days, a new one with each refresh. */
export const PINTEREST_REFRESH_SECS = 60 * 24 * 3600;

export interface PinterestEmulatorOptions extends ListenOptions {
  /** A CA certificate (PEM) the emulator trusts when it fetches image URLs (a test's HTTPS front). */
  fetchCa?: string;
  /** How image URLs are downloaded instead of the emulator's own fetch (shared/media-fetch.ts): the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
}

/**
 * The common controls (signIn: the user who consents on GET /oauth/, it redirects at once;
 * revokeUser: their tokens answer code 2 / 283; omitNextRefreshToken: the next refresh answers
 * without refresh_token and the presented one keeps working) and these.
 */
export interface PinterestEmulator extends OAuthEmulatorControls, PinterestPublishingControls, PinterestUserControls {}

export async function startPinterestEmulator(opts: PinterestEmulatorOptions = {}): Promise<PinterestEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: PINTEREST_ACCESS_SECS, refreshSecs: PINTEREST_REFRESH_SECS, rotateRefresh: true, codeSecs: 600 }, 'pina');
  const faults = new FaultQueue();
  const state = new PinterestState(clock);
  let origin = '';
  const app = createApp(1024 * 1024);

  // A test's failNext answers first; a faulted call is logged as it arrives (its answer may be held
  // back while a test kills its sender).
  const withFaults = (handle: Handler) => async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split('?')[0]!;
    const fault = faults.take(req.method, path);
    if (!fault) return send(reply, await handle(req));
    state.calls.push({ method: req.method, path, status: fault.status });
    if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const answer: Reply = { status: fault.status, body: fault.body ?? faultBody(fault.status), headers: fault.headers };
    return send(reply, answer);
  };
  const route: Route = (method, url, handler, bodyLimit) => void app.route({ method, url, handler: withFaults(handler), ...(bodyLimit ? { bodyLimit } : {}) });

  // Image URLs are fetched as Pinterest would; a test's HTTPS servers have their own CAs to trust.
  const cas: string[] = opts.fetchCa ? [opts.fetchCa] : [];
  const via = { ca: cas, ...(opts.fetchMedia ? { fetchMedia: opts.fetchMedia } : {}) };
  const ctx: ApiContext = {
    state,
    oauth,
    limiter: new WindowLimiter(),
    fetcher: (url) => withMediaResponse(url, via, async (res) => {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? '' };
    }),
    origin: () => origin,
    now: () => clock.now(),
  };
  registerOAuthRoutes({ state, oauth, clock, route });
  registerUserAccountRoutes(route, ctx);
  registerBoardRoutes(route, ctx);
  registerPinRoutes(route, ctx);
  registerAnalyticsRoutes(route, ctx);
  registerMediaRoutes(route, ctx);
  app.setNotFoundHandler((_req, reply) => send(reply, routeNotFound()));
  app.setErrorHandler((_error, _req, reply) => send(reply, serverError()));

  const server = await listen(app, opts);
  origin = server.url;
  return {
    ...oauthControls(oauth, server, faults),
    close: () => server.close(),
    ...pinterestControls(state, oauth, cas),
  };
}
