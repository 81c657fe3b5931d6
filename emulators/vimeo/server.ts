// A local Vimeo API 3.4 (api.vimeo.com) for tests and `crier start --sandbox`: the connect flow — the
// authorize page (auto-consent for the signed-in user), the authorization-code exchange at
// POST /oauth/access_token (HTTP Basic client credentials, JSON body; the answer carries the user),
// GET /me and DELETE /tokens; Vimeo user tokens do not expire and come without a refresh token, a
// revoked one answers 401 with error_code 8003 — and publishing: videos created with the tus approach
// (routes.ts), the tus endpoint (tus.ts), transcodes, comments, upload quotas, and the rate-limit
// headers of every API answer (429 past the limit).
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { authScheme, bearerToken, createApp, isPlainObject, jsonBody, listen, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { basicCredentials, oauthControls, OAuthServer, redirectBack, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { WindowLimiter } from '../shared/rate.ts';
import { invalidToken, notFound, revokedToken, serverError, tokenError, tooManyRequests, vimeoError } from './errors.ts';
import { publishingControls, Stalls, type PublishingControls, type RateLimit } from './inspect.ts';
import { queryOf } from './query.ts';
import { publishingRoutes } from './routes.ts';
import { registerTus, type TusLog } from './tus.ts';
import { pickFields, VideoStore } from './videos.ts';

export type { FaultSpec } from '../shared/faults.ts';
export type { PublishingControls, RateLimit, Stall, VimeoVideoView } from './inspect.ts';
export type { TusHead, TusPatch } from './tus.ts';

/** Scopes Vimeo's authorize page knows (developer.vimeo.com/api/authentication, scopes table). */
export const VIMEO_KNOWN_SCOPES = new Set([
  'public', 'private', 'purchased', 'create', 'edit', 'delete', 'interact', 'upload', 'promo_codes', 'video_files', 'stats', 'email',
]);
/** Codes are single-use and short-lived (the emulator allows 10 minutes). */
const CODE_SECS = 600;
const PICTURE_WIDTHS = [30, 72, 75, 100, 144, 216, 288, 300, 360];
/** Generous enough for any test; setRateLimit lowers it. */
const DEFAULT_RATE_LIMIT: RateLimit = { limit: 1000, windowMs: 60_000 };
/** The OAuth routes answer without rate-limit headers; every other API route carries them. */
const UNLIMITED_PATHS = new Set(['/oauth/authorize', '/oauth/access_token']);
/** A JSON body of the API (POST /me/videos, a comment); video bytes go to the tus endpoint instead. */
const API_BODY_LIMIT = 1024 * 1024;

export interface VimeoUser {
  /** Numeric id, as in uri "/users/<id>". */
  id: string;
  name: string;
  /** The path of https://vimeo.com/<username>: a custom URL, or "user<id>" without one. */
  username: string;
  /** Base link of a custom portrait (sizes get "_<w>x<h>"), or null for Vimeo's default picture. */
  pictureBase: string | null;
  /** The plan: 'basic' (Vimeo Basic: no unlisted or disable view), 'plus', 'pro', 'business'... */
  account: string;
  /** metadata.connections.followers/following totals. */
  followers: number;
  following: number;
}

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

/** One request as the emulator received it: what the quirk tests check. */
export interface VimeoRequestLog {
  method: string;
  path: string;
  accept: string | undefined;
  contentType: string | undefined;
  /** The scheme of the Authorization header: 'basic', 'bearer' or 'none'. */
  auth: 'basic' | 'bearer' | 'none' | 'other';
  /** The query string's parameters (`fields`, `page`...). */
  query: Record<string, string | undefined>;
  /** A JSON body as parsed, or undefined. */
  json: unknown;
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

  const userJson = (user: VimeoUser, own = false) => ({
    uri: `/users/${user.id}`,
    name: user.name,
    link: `https://vimeo.com/${user.username}`,
    location: '',
    bio: null,
    short_bio: null,
    created_time: '2024-01-01T00:00:00+00:00',
    account: user.account,
    pictures: user.pictureBase
      ? {
          uri: `/users/${user.id}/pictures/1`,
          active: true,
          type: 'custom',
          base_link: user.pictureBase,
          sizes: PICTURE_WIDTHS.map((w) => ({ width: w, height: w, link: `${user.pictureBase}_${w}x${w}?r=pad` })),
          resource_key: 'picture-resource',
        }
      : {
          uri: null,
          active: false,
          type: 'default',
          base_link: 'https://i.vimeocdn.com/portrait/defaults-blue',
          sizes: PICTURE_WIDTHS.map((w) => ({ width: w, height: w, link: `https://i.vimeocdn.com/portrait/defaults-blue_${w}x${w}.png` })),
          resource_key: 'default-picture',
        },
    websites: [],
    metadata: {
      connections: {
        videos: { uri: `/users/${user.id}/videos`, options: ['GET'], total: [...store.videos.values()].filter((v) => v.ownerId === user.id).length },
        followers: { uri: `/users/${user.id}/followers`, options: ['GET'], total: user.followers },
        following: { uri: `/users/${user.id}/following`, options: ['GET'], total: user.following },
        likes: { uri: `/users/${user.id}/likes`, options: ['GET'], total: 0 },
      },
    },
    resource_key: `user-${user.id}`,
    ...(own ? { upload_quota: uploadQuotaJson(user.id) } : {}),
  });
  /** upload_quota as api.yaml describes it: the space left (`space`), and the periodic and lifetime figures. */
  const uploadQuotaJson = (userId: string) => {
    const { free, max, resetDate } = store.quotaOf(userId);
    const figures = { free: Math.max(0, free), max, used: max - Math.max(0, free) };
    return resetDate
      ? { space: { ...figures, showing: 'periodic' }, periodic: { ...figures, reset_date: resetDate }, lifetime: { free: null, max: null, used: null } }
      : { space: { ...figures, showing: 'lifetime' }, periodic: { free: null, max: null, used: null, reset_date: null }, lifetime: figures };
  };

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

  const query = queryOf;

  route('GET', '/oauth/authorize', (req) => {
    const q = query(req);
    // Without a registered client and its exact redirect URI there is nowhere safe to send the user: Vimeo shows an error page.
    const client = oauth.apps.get(q.client_id ?? '');
    if (!client) return vimeoError(400, 2002, 'The client_id is invalid.', 'No app has this client_id.');
    const redirectUri = q.redirect_uri ?? '';
    if (!client.redirectUris.includes(redirectUri)) {
      return vimeoError(400, 2002, 'The redirect_uri is invalid.', 'The redirect_uri must match one of the app\'s callback URLs exactly.');
    }
    const back = (params: Record<string, string>) => redirectBack(redirectUri, params, q.state);
    if (q.response_type !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
    if (!q.state) return back({ error: 'invalid_request', error_description: 'state is required' });
    const scopes = (q.scope ?? 'public').split(/[\s+]+/).filter(Boolean);
    if (scopes.some((s) => !VIMEO_KNOWN_SCOPES.has(s))) return back({ error: 'invalid_scope', error_description: 'An unknown scope was requested.' });
    const userId = oauth.signedInUser;
    if (!userId || !users.has(userId)) return back({ error: 'access_denied', error_description: 'The user denied the request.' });
    const code = oauth.issueCode({ clientId: client.clientId, redirectUri, scopes });
    return back({ code: code! });
  });

  route('POST', '/oauth/access_token', (req) => {
    const basic = basicCredentials(req.headers.authorization);
    const client = basic && oauth.checkClient(basic.id, basic.secret);
    if (!client || client === 'invalid') {
      return tokenError(401, 'invalid_client', 'A valid client ID and secret must be provided with HTTP Basic authentication.');
    }
    // Vimeo documents this call with a JSON body; the emulator takes nothing else (see README).
    const body = /^application\/json\b/i.test(req.headers['content-type'] ?? '') ? jsonBody(req.body) : undefined;
    if (!isPlainObject(body)) return tokenError(400, 'invalid_request', 'The request body must be a JSON object (Content-Type: application/json).');
    if (body.grant_type !== 'authorization_code') return tokenError(400, 'unsupported_grant_type', 'grant_type must be authorization_code.');
    if (typeof body.code !== 'string' || !body.code) return tokenError(400, 'invalid_request', 'Invalid authorization code');
    const issued = oauth.redeemCode({ clientId: client.clientId, code: body.code, redirectUri: typeof body.redirect_uri === 'string' ? body.redirect_uri : '' });
    if (issued === 'redirect_mismatch') return tokenError(400, 'invalid_request', 'The redirect_uri does not match the one of the authorization request.');
    if (typeof issued === 'string') return tokenError(400, 'invalid_request', 'Invalid authorization code');
    const user = users.get(issued.userId)!;
    return {
      status: 200,
      body: {
        access_token: issued.accessToken,
        token_type: 'bearer',
        scope: issued.scopes.join(' '),
        user: userJson(user),
        app: { name: `App ${client.clientId}`, uri: `/apps/${client.clientId}` },
      },
    };
  });

  const authenticate = (req: FastifyRequest): VimeoUser | Reply => {
    const check = oauth.checkAccess(bearerToken(req.headers.authorization));
    if (!check.ok) return check.reason === 'unknown' ? invalidToken() : revokedToken();
    return users.get(check.userId) ?? invalidToken();
  };
  const isReply = (value: VimeoUser | Reply): value is Reply => 'status' in value;

  route('GET', '/me', (req) => {
    const user = authenticate(req);
    return isReply(user) ? user : { status: 200, body: pickFields(userJson(user, true), queryOf(req).fields) };
  });

  route('DELETE', '/tokens', (req) => {
    const token = bearerToken(req.headers.authorization);
    const user = authenticate(req);
    if (isReply(user)) return user;
    oauth.revoke(token!);
    return { status: 204 };
  });

  const publishing = publishingRoutes({
    store,
    origin: () => origin,
    authenticate: (req) => {
      const user = authenticate(req);
      if (isReply(user)) return user;
      const check = oauth.checkAccess(bearerToken(req.headers.authorization));
      return { id: user.id, account: user.account, scopes: check.ok ? check.scopes : [] };
    },
    userOf: (id) => {
      const user = users.get(id);
      return user ? userJson(user) : null;
    },
  });
  for (const r of publishing) route(r.method, r.url, r.handler);
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
