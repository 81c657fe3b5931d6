// A local Pinterest (API v5) for tests and `crier start --sandbox`: the OAuth consent page of
// www.pinterest.com (auto-consent), POST /v5/oauth/token (HTTP Basic app credentials only,
// authorization_code and refresh_token grants, continuous refresh tokens that rotate) and
// GET /v5/user_account, with Pinterest's {code, message} errors; and publishing (api.ts): boards,
// pins, video media and their upload URL, with the inspection handle below.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { registerApi } from './api.ts';
import { numericId, PinterestStore, type AccountCounts, type BoardPrivacy, type DailyMetrics, type PinterestBoard, type PinterestCall, type PinterestMedia, type PinterestPin } from './store.ts';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { bearerToken, createApp, firstValues, listen, rawBody, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { withMediaResponse, type FetchMedia } from '../shared/media-fetch.ts';
import { basicCredentials, oauthControls, OAuthServer, redirectBack, type IssuedToken, type OAuthEmulatorControls } from '../shared/oauth.ts';

/** 30 days. */
export const PINTEREST_ACCESS_SECS = 30 * 24 * 3600;
/** Continuous refresh tokens: 60 days, a new one with each refresh. */
export const PINTEREST_REFRESH_SECS = 60 * 24 * 3600;

export const PINTEREST_SCOPES = [
  'ads:read', 'ads:write', 'billing:read', 'billing:write', 'biz_access:read', 'biz_access:write', 'boards:read', 'boards:read_secret',
  'boards:write', 'boards:write_secret', 'catalogs:read', 'catalogs:write', 'pins:read', 'pins:read_secret', 'pins:write', 'pins:write_secret',
  'user_accounts:read', 'user_accounts:write',
] as const;

export type PinterestAccountType = 'BUSINESS' | 'PINNER';

export interface PinterestUser {
  id: string;
  username: string;
  accountType: PinterestAccountType;
  businessName: string | null;
  profileImage: string | null;
  websiteUrl: string | null;
  about: string;
}

export type AddPinterestUserInput = Partial<PinterestUser>;

/** One call to the token endpoint as received (form fields, never the app secret). */
export interface TokenRequest {
  grant: string | null;
  form: Record<string, string>;
  /** The app authenticated with HTTP Basic. */
  basic: boolean;
}

export interface PinterestEmulatorOptions extends ListenOptions {
  /** A CA certificate (PEM) the emulator trusts when it fetches image URLs (a test's HTTPS front). */
  fetchCa?: string;
  /** How image URLs are downloaded instead of the emulator's own fetch (shared/media-fetch.ts): the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
}

/** What a test reads and steers of the publishing side. */
export interface PinterestPublishingControls {
  addBoard(input: { ownerId: string; id?: string; name?: string; description?: string | null; privacy?: BoardPrivacy }): PinterestBoard;
  /** A good token of `userId` with these scopes (default: every scope Crier asks for). */
  issueToken(userId: string, scopes?: string[]): string;
  /** Trust this CA certificate (PEM) too when fetching image URLs. */
  trustCa(ca: string): void;
  /** `count` plain image pins on a board, as if created earlier (a board too large to search). */
  addPins(boardId: string, count: number): void;
  /** Every pin created, oldest first (copies). */
  pins(): PinterestPin[];
  /** Every registered video (copies). */
  media(): PinterestMedia[];
  /** Every API call and upload, in order. */
  calls(): PinterestCall[];
  /** After its upload, a video answers `processing` this many polls, then `succeeded` (default 2). */
  setProcessingPolls(polls: number): void;
  /** While held, uploaded videos stay `processing`. */
  holdProcessing(held: boolean): void;
  /** The next uploaded video's processing ends `failed`. */
  failNextVideo(): void;
  /** Upload forms are refused as S3 refuses an expired policy (403 AccessDenied) while set. */
  expireUploads(expired: boolean): void;
  /** At most `limit` writes (POST /v5/pins, /v5/media) per user per window, then 429 code 8; undefined lifts it. */
  limitWrites(limit: { limit: number; windowMs: number } | undefined): void;
  /** A pin made earlier (an import's material): a repin when `parentPinId` is set; `images` > 1 makes a carousel. */
  addPin(input: { boardId: string; description?: string | null; title?: string | null; mediaType?: 'image' | 'video'; images?: number; createdAt?: string; parentPinId?: string }): PinterestPin;
  /** A Pin's figures per day (summed by pins/analytics over the dates asked) and its lifetime ones. */
  setPinAnalytics(pinId: string, days: DailyMetrics[], lifetime?: Record<string, number>): void;
  /** A user's account figures per day (user_account/analytics). */
  setAccountAnalytics(userId: string, days: DailyMetrics[]): void;
  /** A user's profile counts (GET /v5/user_account); unset ones stay 0. */
  setCounts(userId: string, counts: Partial<AccountCounts>): void;
}

/** The scopes Crier's Pinterest connect asks for. */
const CRIER_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];

/**
 * The common controls (signIn: the user who consents on GET /oauth/, it redirects at once;
 * revokeUser: their tokens answer code 2 / 283; omitNextRefreshToken: the next refresh answers
 * without refresh_token and the presented one keeps working) and these.
 */
export interface PinterestEmulator extends OAuthEmulatorControls, PinterestPublishingControls {
  /** A user; every field has a default, so addUser({}) works. */
  addUser(input?: AddPinterestUserInput): PinterestUser;
  /** Every token call, oldest first. */
  tokenRequests(): TokenRequest[];
}

const error = (status: number, code: number, message: string): Reply => ({ status, body: { code, message } });
const authFailed = () => error(401, 2, 'Authentication failed.');
const badGrant = () => error(401, 283, 'The authorization grant is invalid');
const notPermitted = () => error(403, 29, 'You are not permitted to access that resource.');

let counter = 0;

export async function startPinterestEmulator(opts: PinterestEmulatorOptions = {}): Promise<PinterestEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: PINTEREST_ACCESS_SECS, refreshSecs: PINTEREST_REFRESH_SECS, rotateRefresh: true, codeSecs: 600 }, 'pina');
  const users = new Map<string, PinterestUser>();
  const requests: TokenRequest[] = [];
  const faults = new FaultQueue();
  const store = new PinterestStore(clock);
  let writeLimit: { limit: number; windowMs: number } | undefined;
  let origin = '';
  const app = createApp(1024 * 1024);

  const tokenBody = (issued: IssuedToken, responseType: string) => ({
    access_token: issued.accessToken,
    ...(issued.refreshToken
      ? {
          refresh_token: issued.refreshToken,
          refresh_token_expires_in: issued.refreshExpiresIn,
          refresh_token_expires_at: clock.nowSecs() + (issued.refreshExpiresIn ?? 0),
        }
      : {}),
    response_type: responseType,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    scope: issued.scopes.join(','),
  });

  const authorize = (query: Record<string, string | undefined>): Reply => {
    const found = oauth.apps.get(query.client_id ?? '');
    if (!found) return error(400, 1, 'Invalid client_id');
    const redirectUri = query.redirect_uri ?? '';
    if (!found.redirectUris.includes(redirectUri)) return error(400, 1, 'Invalid redirect_uri: it does not match a redirect URI of the app');
    const back = (params: Record<string, string>) => redirectBack(redirectUri, params, query.state);
    if (query.response_type !== 'code') return back({ error: 'unsupported_response_type' });
    const scopes = (query.scope ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!scopes.length || scopes.some((s) => !(PINTEREST_SCOPES as readonly string[]).includes(s))) return back({ error: 'invalid_scope' });
    const signedIn = oauth.signedInUser;
    if (!signedIn || !users.has(signedIn)) return back({ error: 'access_denied' });
    return back({ code: oauth.issueCode({ clientId: found.clientId, redirectUri, scopes })! });
  };

  const token = (body: unknown, authorization: string | undefined, contentType: string): Reply => {
    const form = /^application\/x-www-form-urlencoded/i.test(contentType) ? new URLSearchParams(rawBody(body).toString('utf8')) : new URLSearchParams();
    const basic = basicCredentials(authorization);
    const recorded = Object.fromEntries([...form].filter(([name]) => name !== 'client_secret'));
    requests.push({ grant: form.get('grant_type'), form: recorded, basic: Boolean(basic) });
    // Only HTTP Basic authenticates the app; client_id/client_secret in the form are not looked at.
    const client = basic ? oauth.checkClient(basic.id, basic.secret) : undefined;
    if (!client || client === 'invalid') return authFailed();
    const grant = form.get('grant_type');
    if (!grant) return error(400, 1, 'Missing request body parameter: grant_type');
    if (grant === 'authorization_code') {
      if (!form.get('code')) return error(400, 1, 'Missing request body parameter: code');
      if (!form.get('redirect_uri')) return error(400, 1, 'Missing request body parameter: redirect_uri');
      const issued = oauth.redeemCode({ clientId: client.clientId, code: form.get('code')!, redirectUri: form.get('redirect_uri') });
      if (typeof issued === 'string') return badGrant();
      return { status: 200, body: tokenBody(issued, 'authorization_code') };
    }
    if (grant === 'refresh_token') {
      if (!form.get('refresh_token')) return error(400, 1, 'Missing request body parameter: refresh_token');
      const issued = oauth.refresh(client.clientId, form.get('refresh_token')!);
      if (issued === 'invalid') return badGrant();
      return { status: 200, body: tokenBody(issued, 'refresh_token') };
    }
    return error(400, 1, `Invalid grant_type: ${grant}`);
  };

  const countsOf = (userId: string): AccountCounts => ({ board_count: 0, pin_count: 0, follower_count: 0, following_count: 0, monthly_views: 0, ...store.counts.get(userId) });
  const userAccount = (authorization: string | undefined): Reply => {
    const check = oauth.checkAccess(bearerToken(authorization));
    if (!check.ok) return authFailed();
    if (!check.scopes.includes('user_accounts:read')) return notPermitted();
    const user = users.get(check.userId);
    if (!user) return authFailed();
    return {
      status: 200,
      body: {
        account_type: user.accountType,
        id: user.id,
        username: user.username,
        profile_image: user.profileImage,
        website_url: user.websiteUrl,
        about: user.about,
        ...(user.accountType === 'BUSINESS' ? { business_name: user.businessName } : {}),
        ...countsOf(user.id),
      },
    };
  };

  const withFaults = (handle: (req: FastifyRequest) => Reply | Promise<Reply>) => async (req: FastifyRequest, reply: FastifyReply) => {
    const fault = faults.take(req.method, req.url.split('?')[0]!);
    // A faulted call is logged as it arrives (its answer may be held back while a test kills its sender).
    if (fault) store.calls.push({ method: req.method, path: req.url.split('?')[0]!, status: fault.status });
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault) return send(reply, { status: fault.status, body: fault.body ?? { code: fault.status === 429 ? 8 : 1, message: fault.status === 429 ? "You have exceeded your rate limit. Try again later." : 'Something went wrong on our end. Sorry about that.' }, headers: fault.headers });
    return send(reply, await handle(req));
  };
  for (const url of ['/oauth/', '/oauth']) app.get(url, withFaults((req) => authorize(firstValues(req.query))));
  app.post('/v5/oauth/token', withFaults((req) => token(req.body, req.headers.authorization, req.headers['content-type'] ?? '')));
  app.get('/v5/user_account', withFaults((req) => {
    const reply = userAccount(req.headers.authorization);
    const userId = oauth.checkAccess(bearerToken(req.headers.authorization));
    store.calls.push({ method: 'GET', path: '/v5/user_account', status: reply.status, ...(userId.ok ? { userId: userId.userId } : {}) });
    return reply;
  }));
  // Image URLs are fetched as Pinterest would; a test's HTTPS servers have their own CAs to trust.
  const cas: string[] = opts.fetchCa ? [opts.fetchCa] : [];
  const via = { ca: cas, ...(opts.fetchMedia ? { fetchMedia: opts.fetchMedia } : {}) };
  registerApi((method, url, handler, bodyLimit) => app.route({ method, url, handler: withFaults(handler), ...(bodyLimit ? { bodyLimit } : {}) }), {
    store,
    oauth,
    usernameOf: (id) => users.get(id)?.username,
    fetcher: (url) => withMediaResponse(url, via, async (res) => {
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? '' };
    }),
    origin: () => origin,
    writeLimit: () => writeLimit,
    now: () => clock.now(),
  });
  app.setNotFoundHandler((_req, reply) => send(reply, error(404, 404, 'Not found')));
  app.setErrorHandler((_error, _req, reply) => send(reply, error(500, 1, 'Something went wrong on our end. Sorry about that.')));

  const server = await listen(app, opts);
  origin = server.url;
  return {
    ...oauthControls(oauth, server, faults),
    close: () => server.close(),
    trustCa: (ca) => void cas.push(ca),
    addBoard: (input) => store.addBoard(input),
    issueToken: (userId, scopes = CRIER_SCOPES) => oauth.issue(userId, 'pinterest-emulator', scopes).accessToken,
    addPins: (boardId, count) => {
      const board = store.boards.get(boardId)!;
      for (let i = 0; i < count; i++) {
        store.pins.push({ id: `${board.id}${i}`, ownerId: board.ownerId, boardId, title: `Pin ${i}`, description: null, link: null, altText: null, mediaType: 'image', mediaSource: {}, files: [], createdAt: store.now() });
      }
    },
    pins: () => structuredClone(store.pins),
    media: () => structuredClone([...store.media.values()]),
    calls: () => structuredClone(store.calls),
    setProcessingPolls: (polls) => void (store.processing.polls = polls),
    holdProcessing: (held) => void (store.processing.held = held),
    failNextVideo: () => void (store.processing.failNext = true),
    expireUploads: (expired) => void (store.uploadsExpired = expired),
    limitWrites: (limit) => void (writeLimit = limit),
    addPin: (input) => {
      const board = store.boards.get(input.boardId)!;
      const images = input.images ?? 1;
      const mediaType = input.mediaType === 'video' ? 'video' : images > 1 ? 'multiple_images' : 'image';
      const pin: PinterestPin = {
        id: numericId(8), ownerId: board.ownerId, boardId: board.id, title: input.title ?? null, description: input.description ?? null,
        link: null, altText: null, mediaType, mediaSource: {}, files: Array.from({ length: images }, () => ({ sha256: '', bytes: 0, contentType: 'image/jpeg', from: 'seeded' })),
        createdAt: input.createdAt ?? store.now(), parentPinId: input.parentPinId ?? null,
      };
      store.pins.push(pin);
      return structuredClone(pin);
    },
    setPinAnalytics: (pinId, days, lifetime = {}) => {
      store.pinDays.set(pinId, structuredClone(days));
      store.pinLifetime.set(pinId, { ...lifetime });
    },
    setAccountAnalytics: (userId, days) => void store.accountDays.set(userId, structuredClone(days)),
    setCounts: (userId, counts) => void store.counts.set(userId, { ...store.counts.get(userId), ...counts } as AccountCounts),
    addUser: (input = {}) => {
      counter += 1;
      const accountType = input.accountType ?? 'BUSINESS';
      const user: PinterestUser = {
        id: input.id ?? String(5_000_000_000_000_000 + counter * 7919 + Math.floor(Math.random() * 1000)),
        username: input.username ?? `pinner${counter}_${randomBytes(2).toString('hex')}`,
        accountType,
        businessName: input.businessName === undefined ? (accountType === 'BUSINESS' ? `Business ${counter}` : null) : input.businessName,
        profileImage: input.profileImage === undefined ? `https://i.pinimg.com/600x600_R/${randomBytes(4).toString('hex')}.jpg` : input.profileImage,
        websiteUrl: input.websiteUrl ?? null,
        about: input.about ?? '',
      };
      users.set(user.id, user);
      return user;
    },
    tokenRequests: () => structuredClone(requests),
  };
}
