// A local TikTok (www.tiktok.com Login Kit v2 authorize page + open.tiktokapis.com + the upload host)
// for tests and `crier start --sandbox`: OAuth with client_key, rotating refresh tokens by default, the
// user info endpoint, and the Content Posting API (creator info, inits, chunked uploads, photo pulls,
// status) in TikTok's v2 envelope. Every path is served at one origin (CRIER_TIKTOK_BASE_URL replaces
// every host).
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, firstValues, jsonBody, listen, send, type ListenOptions } from '../shared/http.ts';
import { oauthControls, OAuthServer, tokenCallsOf, type OAuthEmulatorControls, type TokenLifetimes } from '../shared/oauth.ts';
import { apiError, internalError, oauthError, rateLimitExceeded, accessTokenInvalid } from './errors.ts';
import { DisplayVideos, type AddVideoInput, type DisplayVideo } from './display.ts';
import { displayRoutes } from './routes/display.ts';
import { TikTokInspection, type TikTokInspector } from './controls.ts';
import { DEFAULT_CREATOR, Publishing, type CreatorSettings, type PublishingOptions } from './publishing.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { DEFAULT_RATE_LIMITS, publishRoutes, type RateLimits } from './routes/publish.ts';
import { registerUpload } from './routes/upload.ts';
import { userRoutes } from './routes/user.ts';
import type { TikTokRoute, TikTokUser, TikTokWorld, UserStats } from './state.ts';

export type { DisplayVideo } from './display.ts';

export type { TikTokUser } from './state.ts';
export type { CreatorSettings } from './publishing.ts';

/** TikTok's documented variants: the current one (2 h / 180 d, rotating) and the older one (24 h / 365 d). */
export const TIKTOK_LIFETIMES = {
  rotating: { accessSecs: 2 * 3600, refreshSecs: 180 * 24 * 3600, rotateRefresh: true, codeSecs: 300 },
  legacy: { accessSecs: 24 * 3600, refreshSecs: 365 * 24 * 3600, rotateRefresh: false, codeSecs: 300 },
} as const satisfies Record<string, TokenLifetimes>;

export interface TikTokEmulatorOptions extends ListenOptions, PublishingOptions {
  /** Requests per minute per token: creator info 20, inits 6, status 30 (0 turns one off). */
  rateLimits?: Partial<RateLimits>;
  /** 'rotating' (default) or 'legacy'; `lifetimes` overrides single values. */
  variant?: keyof typeof TIKTOK_LIFETIMES;
  lifetimes?: Partial<TokenLifetimes>;
  /** HTTP status of OAuth error bodies (default 200, as TikTok answers them). */
  oauthErrorStatus?: number;
}

export interface AddTikTokUserInput {
  openId?: string;
  unionId?: string;
  username?: string;
  displayName?: string;
  avatarUrl?: string | null;
  bioDescription?: string;
  isVerified?: boolean;
  /** Scopes the user unticks on the consent page. */
  deniedScopes?: string[];
  /** What creator_info answers (defaults: every privacy level, nothing disabled, 600 s, a public account). */
  creator?: Partial<CreatorSettings>;
}

/**
 * The common controls (an app's clientId is TikTok's client_key; omitNextRefreshToken: the next
 * refresh answer has no refresh_token and no refresh_expires_in) and these.
 */
export interface TikTokEmulator extends OAuthEmulatorControls, TikTokInspector {
  /** Registers a user; its id for signIn() and revokeUser() is its open_id. */
  addUser(input?: AddTikTokUserInput): TikTokUser;
  /** Token calls that reached the grant handling, in order (grant 'authorization_code' or 'refresh_token'). */
  tokenCalls(grant?: string): { grant: string; clientId: string; at: number }[];
  /** Every token request form as received (client_secret redacted). */
  tokenRequests(): Record<string, string>[];
  /** A public video of the creator, as if posted earlier (Display API). */
  addVideo(openId: string, input?: AddVideoInput): DisplayVideo;
  /** The creator finishes an inbox draft in the TikTok app: a public video under a new id. */
  postFromInbox(publishId: string): DisplayVideo;
  /** The creator's public videos, newest first (copies). */
  videos(openId: string): DisplayVideo[];
  /** A video's counts change (likes, comments, shares, views). */
  setVideoStats(videoId: string, stats: Partial<Pick<DisplayVideo, 'likeCount' | 'commentCount' | 'shareCount' | 'viewCount'>>): void;
  /** The counts user.info.stats answers. */
  setUserStats(openId: string, stats: Partial<UserStats>): void;
  /** Every Display API and user info call, in order: path, query fields, JSON body, TikTok's code. */
  displayCalls(): DisplayCall[];
}

export interface DisplayCall {
  method: string;
  path: string;
  fields: string | undefined;
  body: unknown;
  code: string;
}

let counter = 0;

export async function startTikTokEmulator(opts: TikTokEmulatorOptions = {}): Promise<TikTokEmulator> {
  const clock = new Clock();
  // Without rotation TikTok hands the same refresh token back.
  const oauth = new OAuthServer(clock, { ...TIKTOK_LIFETIMES[opts.variant ?? 'rotating'], ...opts.lifetimes, echoRefresh: true }, 'act');
  const world: TikTokWorld = {
    clock, oauth, users: new Map(), oauthErrorStatus: opts.oauthErrorStatus ?? 200, tokenRequests: [], origin: '',
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...opts.rateLimits },
  };
  const publishing = new Publishing(clock, opts);
  const display = new DisplayVideos(publishing, world);
  const displayCalls: DisplayCall[] = [];
  const faults = new FaultQueue();
  const app = createApp(1024 * 1024);

  /** The queued fault for this request, after its delay (a request left hanging), as TikTok words it. */
  const faultFor = async (req: FastifyRequest) => {
    const path = req.url.split('?')[0]!;
    const fault = faults.take(req.method, path);
    if (!fault) return undefined;
    if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const base = path.startsWith('/v2/oauth/')
      ? oauthError(fault.status, fault.status >= 500 ? 'server_error' : 'temporarily_unavailable', 'Emulated failure.')
      : fault.status === 401 ? accessTokenInvalid() : fault.status === 429 ? rateLimitExceeded() : internalError(fault.status);
    return { status: fault.status, body: fault.body ?? base.body, ...(fault.headers ? { headers: fault.headers } : {}) };
  };

  const register = (route: TikTokRoute) => {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = await faultFor(req);
        const answer = fault ?? route.handler({ query: firstValues(req.query), body: req.body, headers: req.headers });
        if (route.url.startsWith('/v2/video/') || route.url === '/v2/user/info/') {
          const code = (answer.body as { error?: { code?: string } } | undefined)?.error?.code ?? String(answer.status);
          displayCalls.push({ method: req.method, path: route.url, fields: firstValues(req.query).fields, body: jsonBody(req.body) ?? null, code });
        }
        return send(reply, answer);
      },
    });
  };
  const publicVideos = (openId: string) => display.of(openId).length;
  for (const route of [...oauthRoutes(world), ...userRoutes(world, publicVideos), ...publishRoutes(world, publishing), ...displayRoutes(world, display)]) register(route);
  await registerUpload(app, publishing, faultFor);
  app.setNotFoundHandler((_req, reply) => send(reply, apiError(404, 'not_found', 'The requested path does not exist.')));
  app.setErrorHandler((_error, _req, reply) => send(reply, internalError()));

  const server = await listen(app, opts);
  world.origin = server.url;
  return {
    ...oauthControls(oauth, server, faults),
    ...new TikTokInspection(publishing, world).handle(),
    addUser: (input = {}) => {
      counter += 1;
      const username = input.username ?? `tiktok.user${counter}`;
      const user: TikTokUser = {
        openId: input.openId ?? `-000${randomUUID().replace(/-/g, '').slice(0, 28)}`,
        unionId: input.unionId ?? randomUUID(),
        username,
        displayName: input.displayName ?? `TikTok User ${counter}`,
        avatarUrl: input.avatarUrl === undefined ? `https://p16-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/${username}~c5_168x168.jpeg` : input.avatarUrl,
        bioDescription: input.bioDescription ?? '',
        isVerified: input.isVerified ?? false,
        deniedScopes: [...(input.deniedScopes ?? [])],
        stats: {},
        creator: { ...DEFAULT_CREATOR, ...input.creator, privacyLevelOptions: [...(input.creator?.privacyLevelOptions ?? DEFAULT_CREATOR.privacyLevelOptions)] },
      };
      world.users.set(user.openId, user);
      return structuredClone(user);
    },
    tokenCalls: tokenCallsOf(oauth),
    addVideo: (openId, input) => ({ ...display.add(openId, input) }),
    postFromInbox: (publishId) => ({ ...display.postFromInbox(publishId) }),
    videos: (openId) => display.of(openId).map((v) => ({ ...v })),
    setVideoStats: (videoId, stats) => {
      const video = display.find(videoId);
      if (!video) throw new Error(`no TikTok video ${videoId}`);
      Object.assign(video, stats);
    },
    setUserStats: (openId, stats) => {
      const user = world.users.get(openId);
      if (!user) throw new Error(`no TikTok user ${openId}`);
      user.stats = { ...user.stats, ...stats };
    },
    displayCalls: () => structuredClone(displayCalls),
    tokenRequests: () => structuredClone(world.tokenRequests),
  };
}
