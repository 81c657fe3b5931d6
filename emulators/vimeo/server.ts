// A local Vimeo API 3.4 (api.vimeo.com) for tests and `crier start --sandbox`: the connect flow
// (routes/oauth.ts, routes/me.ts) — Vimeo user tokens do not expire and come without a refresh token,
// a revoked one answers 401 with error_code 8003 — and publishing: videos created with the tus
// approach (routes/uploads.ts), the tus endpoint (routes/tus.ts), videos and their privacy
// (routes/videos.ts), comments (routes/comments.ts), transcodes, upload quotas, and the rate-limit
// headers of every API answer (429 past the limit). This file only wires them together.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { authScheme, bearerToken, createApp, jsonBody, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { oauthControls, OAuthServer, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { WindowLimiter } from '../shared/rate.ts';
import { publishingControls, Stalls, type PublishingControls, type RateLimit } from './controls.ts';
import { invalidToken, notFound, revokedToken, serverError, tooManyRequests } from './errors.ts';
import { userJson } from './objects.ts';
import { commentRoutes } from './routes/comments.ts';
import type { Member, VimeoContext, VimeoRoute } from './routes/context.ts';
import { meRoutes } from './routes/me.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { registerTus, type TusLog } from './routes/tus.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { videoRoutes } from './routes/videos.ts';
import { VideoStore, type VimeoRequestLog, type VimeoUser } from './state.ts';
import { queryOf } from './validate.ts';

export type { FaultSpec } from '../shared/faults.ts';
export type { PublishingControls, RateLimit, Stall, VimeoVideoView } from './controls.ts';
export { VIMEO_KNOWN_SCOPES } from './routes/oauth.ts';
export type { TusHead, TusPatch } from './routes/tus.ts';
export type { VimeoRequestLog, VimeoUser } from './state.ts';

/** Codes are single-use and short-lived (the emulator allows 10 minutes). */
const CODE_SECS = 600;
/** Generous enough for any test; setRateLimit lowers it. */
const DEFAULT_RATE_LIMIT: RateLimit = { limit: 1000, windowMs: 60_000 };
/** The OAuth routes answer without rate-limit headers; every other API route carries them. */
const UNLIMITED_PATHS = new Set(['/oauth/authorize', '/oauth/access_token']);
/** A JSON body of the API (POST /me/videos, a comment); video bytes go to the tus endpoint instead. */
const API_BODY_LIMIT = 1024 * 1024;

export interface AddVimeoUserInput {
  id?: string;
  name?: string;
  username?: string;
  /** null: no custom picture (Vimeo then lists its default portraits). */
  pictureBase?: string | null;
  /** Default 'pro': a paid plan, every privacy view allowed. */
  account?: string;
  followers?: number;
  following?: number;
}

/**
 * The common controls (signIn(undefined): the page answers access_denied; revokeUser: every token of
 * theirs answers 401 8003; omitNextRefreshToken: no effect, Vimeo issues no refresh tokens) and these.
 */
export interface VimeoEmulator extends OAuthEmulatorControls, PublishingControls {
  addUser(input?: AddVimeoUserInput): VimeoUser;
  /** The member's follower and following counts (metadata.connections of the user object). */
  setFollowers(userId: string, counts: { followers?: number; following?: number }): void;
  /** The member left Vimeo: their comments keep `user: null` (api.yaml: the comment's user is nullable). */
  removeUser(userId: string): void;
  /** Every request received, oldest first. */
  requests(): VimeoRequestLog[];
}

export type VimeoEmulatorOptions = ListenOptions;

export async function startVimeoEmulator(opts: VimeoEmulatorOptions = {}): Promise<VimeoEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: null, refreshSecs: null, rotateRefresh: false, codeSecs: CODE_SECS }, 'vimeo');
  const users = new Map<string, VimeoUser>();
  const log: VimeoRequestLog[] = [];
  const faults = new FaultQueue();
  const store = new VideoStore(clock);
  const stalls = new Stalls();
  const tus: TusLog = { patches: [], heads: [], stall: (method, path, offset) => stalls.take(method, path, offset) };
  const rate = { current: DEFAULT_RATE_LIMIT };
  const limiter = new WindowLimiter();
  let nextId = 100_000_001;
  let origin = '';
  const app = createApp(API_BODY_LIMIT);

  /** The window of the token that called: its headers on every answer, a 429 past it. */
  const rateLimited = (req: FastifyRequest): { headers: Record<string, string>; refused: boolean } => {
    const { limit, windowMs } = rate.current;
    const result = limiter.consume(req.headers.authorization ?? 'anonymous', limit, windowMs, clock.now());
    // An ISO 8601 date, as observed in Vimeo's answers (README: sources).
    const reset = new Date(result.reset * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    return { headers: { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(result.remaining), 'x-ratelimit-reset': reset }, refused: !result.ok };
  };

  type Handler = (req: FastifyRequest) => Reply;
  const route = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, handler: Handler) =>
    app.route({
      method,
      url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const path = req.url.split('?')[0]!;
        log.push({
          method: req.method,
          path,
          accept: req.headers.accept,
          contentType: req.headers['content-type'],
          auth: authScheme(req.headers.authorization),
          query: queryOf(req),
          json: jsonBody(req.body),
        });
        const fault = faults.take(req.method, path);
        if (fault) {
          if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          const base = fault.status === 401 ? invalidToken() : fault.status === 429 ? tooManyRequests() : serverError(fault.status);
          return send(reply, { status: fault.status, body: fault.body ?? base.body, headers: fault.headers });
        }
        if (UNLIMITED_PATHS.has(path)) return send(reply, handler(req));
        const window = rateLimited(req);
        const answer = window.refused ? tooManyRequests() : handler(req);
        const stallMs = stalls.take(req.method, path);
        if (stallMs > 0) await new Promise((resolve) => setTimeout(resolve, stallMs));
        return send(reply, { ...answer, headers: { ...window.headers, ...answer.headers } });
      },
    });

  const authenticate = (req: FastifyRequest): Member | Reply => {
    const check = oauth.checkAccess(bearerToken(req.headers.authorization));
    if (!check.ok) return check.reason === 'unknown' ? invalidToken() : revokedToken();
    const user = users.get(check.userId);
    return user ? { id: user.id, account: user.account, scopes: check.scopes } : invalidToken();
  };
  const ctx: VimeoContext = {
    clock, oauth, users, store,
    origin: () => origin,
    authenticate,
    userOf: (id) => {
      const user = users.get(id);
      return user ? userJson(user, store) : null;
    },
  };
  const routes: VimeoRoute[] = [...oauthRoutes(ctx), ...meRoutes(ctx), ...uploadRoutes(ctx), ...videoRoutes(ctx), ...commentRoutes(ctx)];
  for (const r of routes) route(r.method, r.url, r.handler);
  await registerTus(app, store, tus, async (req) => {
    const fault = faults.take(req.method, req.url.split('?')[0]!);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    return fault && { status: fault.status, body: fault.body, headers: fault.headers };
  });

  app.setNotFoundHandler((_req, reply) => send(reply, notFound()));
  app.setErrorHandler((_error, _req, reply) => send(reply, serverError(500)));
  const server = await listen(app, opts);
  origin = server.url;

  return {
    ...oauthControls(oauth, server, faults),
    ...publishingControls(store, tus, rate, stalls),
    addUser: (input = {}) => {
      const id = input.id ?? String(nextId++);
      const user: VimeoUser = {
        id,
        name: input.name ?? `Vimeo User ${id}`,
        username: input.username ?? `user${id}`,
        pictureBase: input.pictureBase === undefined ? `https://i.vimeocdn.com/portrait/${randomBytes(4).readUInt32BE(0)}` : input.pictureBase,
        account: input.account ?? 'pro',
        followers: input.followers ?? 0,
        following: input.following ?? 0,
      };
      users.set(id, user);
      return { ...user };
    },
    setFollowers: (userId, counts) => {
      const user = users.get(userId);
      if (!user) throw new Error(`no Vimeo user ${userId}`);
      if (counts.followers !== undefined) user.followers = counts.followers;
      if (counts.following !== undefined) user.following = counts.following;
    },
    removeUser: (userId) => void users.delete(userId),
    requests: () => structuredClone(log),
  };
}
