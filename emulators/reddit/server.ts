// A local Reddit for the connect flow, for tests and `crier start --sandbox`: www.reddit.com's
// authorize page (auto-consent) and token endpoint (HTTP Basic client credentials, form body, errors
// as Reddit returns them: mostly HTTP 200 with {"error": ...}), and oauth.reddit.com's
// GET /api/v1/me, all at one origin. Refresh tokens (duration=permanent) do not rotate; access
// tokens live an hour. Requests with a generic User-Agent are throttled (429), as Reddit does.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { authScheme, bearerToken, createApp, listen, rawBody, send, type ListenOptions, type Reply } from '../shared/http.ts';
import { basicCredentials, oauthControls, OAuthServer, redirectBack, type IssuedToken, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { registerPostingRoutes, type ReceivedForm } from './routes.ts';
import { SubmissionStore, type Comment, type Submission, type Subreddit } from './submissions.ts';
import { badClient, statusError, tokenError, tooManyRequests, unauthorized } from './errors.ts';

export type { FaultSpec } from '../shared/faults.ts';

/** Every scope of https://www.reddit.com/api/v1/scopes (as listed in PRAW's docs, 2021), plus "*". */
export const REDDIT_KNOWN_SCOPES = new Set([
  '*', 'account', 'creddits', 'edit', 'flair', 'history', 'identity', 'livemanage', 'modconfig', 'modcontributors', 'modflair',
  'modlog', 'modmail', 'modothers', 'modposts', 'modself', 'modtraffic', 'modwiki', 'mysubreddits', 'privatemessages', 'read',
  'report', 'save', 'structuredstyles', 'submit', 'subscribe', 'vote', 'wikiedit', 'wikiread',
]);
export const ACCESS_TOKEN_SECS = 3600;
/** Authorization codes live 10 minutes (OAuth2AuthorizationCode._ttl in reddit's source). */
const CODE_SECS = 600;
/** Free tier: 100 queries per minute per client id, averaged over a 10-minute window. */
const WINDOW_SECS = 600;
const WINDOW_LIMIT = 1000;
/**
 * User-Agents Reddit throttles as generic: library defaults and empty ones. Reddit asks for
 * `<platform>:<app ID>:<version> (by /u/<username>)`.
 */
const GENERIC_AGENT = /^(?:$|node(?:-fetch)?\b|undici\b|axios\b|got\b|python-requests\b|python-urllib\b|aiohttp\b|curl\b|wget\b|go-http-client\b|okhttp\b|java\b|libwww-perl\b|ruby\b)/i;

export interface RedditUser {
  /** Base-36 account id; the fullname is "t2_" + id. */
  id: string;
  name: string;
  /** The profile's display name (subreddit.title); may be empty. */
  displayName: string;
  /** As Reddit stores it (unescaped); /api/v1/me HTML-escapes it unless raw_json=1. */
  iconImg: string;
  /** The avatar builder image, or "" when the user has none. */
  snoovatarImg: string;
  /** /api/v1/me's karma figures. */
  linkKarma: number;
  commentKarma: number;
  /** Followers: the subscribers of the user's profile subreddit (u_<name>). */
  subscribers: number;
}

export interface AddRedditUserInput {
  id?: string;
  name?: string;
  displayName?: string;
  iconImg?: string;
  snoovatarImg?: string;
  linkKarma?: number;
  commentKarma?: number;
  subscribers?: number;
}

/** A comment by any redditor (`author` need not be a user of the emulator), on a submission or under a comment. */
export interface AddCommentInput {
  /** The submission (id or t3_ fullname) or the comment (t1_ fullname) it answers. */
  on: string;
  author: string;
  body: string;
  score?: number;
  /** Epoch seconds; default now (emulator clock). */
  createdUtc?: number;
}

/** A submission's figures as /api/info and listings show them. */
export interface SubmissionStats {
  score?: number;
  upvoteRatio?: number;
  viewCount?: number | null;
  numCrossposts?: number;
}

export interface RedditRequestLog {
  method: string;
  path: string;
  /** The query string as sent (without "?"), "" when none. */
  query: string;
  userAgent: string;
  /** Scheme of the Authorization header. */
  auth: 'basic' | 'bearer' | 'none' | 'other';
  contentType: string | undefined;
}

export interface RedditEmulatorOptions extends ListenOptions {
  /**
   * Refresh answers repeat the (unchanged) refresh token, as recorded in 2021; by default they carry
   * none and the client keeps its own.
   */
  echoRefreshToken?: boolean;
}

/**
 * The common controls (signIn(undefined): /api/v1/authorize answers error=access_denied;
 * omitNextRefreshToken: the next refresh answer carries no refresh token, also the default without
 * echoRefreshToken) and these.
 */
export interface RedditEmulator extends OAuthEmulatorControls {
  addUser(input?: AddRedditUserInput): RedditUser;
  /** Every request received (the authorize page included), oldest first. */
  requests(): RedditRequestLog[];
  /** A subreddit users can post to (u_<name> profiles exist without it). */
  addSubreddit(input: Partial<Subreddit> & { name: string }): Subreddit;
  /** The user's submissions and comments answer RATELIMIT for `ms` (emulator clock). */
  throttle(userName: string, ms: number): void;
  /** Every submission made, oldest first. */
  submissions(): Submission[];
  /** Comments made, oldest first; of one submission (id or t3_ fullname) when given. */
  comments(submissionId?: string): Comment[];
  /** The form of every /api/submit and /api/comment call received, oldest first, refused ones too. */
  forms(): ReceivedForm[];
  /** The next `method path` call is handled at once (the post exists) but answered `ms` later. */
  delayNextAnswer(method: string, path: string, ms: number): void;
  /** Another redditor's comment (or the user's own), nested under `on`; answered as Reddit lists it. */
  addComment(input: AddCommentInput): Comment;
  /** Sets a submission's score, upvote ratio, view count, crossposts. */
  setSubmissionStats(submissionId: string, stats: SubmissionStats): void;
}

export async function startRedditEmulator(opts: RedditEmulatorOptions = {}): Promise<RedditEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: ACCESS_TOKEN_SECS, refreshSecs: 10 * 365 * 24 * 3600, rotateRefresh: false, echoRefresh: opts.echoRefreshToken ?? false, codeSecs: CODE_SECS }, 'reddit');
  const users = new Map<string, RedditUser>();
  const log: RedditRequestLog[] = [];
  const faults = new FaultQueue();
  const windows = new Map<string, { startSecs: number; used: number }>();
  const app = createApp(1024 * 1024);
  const store = new SubmissionStore(clock);
  const received: ReceivedForm[] = [];
  /** Answers held back after handling: the network did it, the answer is late (a crash test kills the caller meanwhile). */
  const delays: { method: string; path: string; ms: number }[] = [];

  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  const meJson = (user: RedditUser, raw: boolean) => {
    const text = (s: string) => (raw ? s : escapeHtml(s));
    const createdUtc = 1_600_000_000;
    return {
      is_employee: false,
      verified: true,
      has_verified_email: true,
      is_gold: false,
      is_mod: false,
      over_18: false,
      id: user.id,
      name: user.name,
      created: createdUtc,
      created_utc: createdUtc,
      link_karma: user.linkKarma,
      comment_karma: user.commentKarma,
      total_karma: user.linkKarma + user.commentKarma,
      awardee_karma: 0,
      awarder_karma: 0,
      icon_img: text(user.iconImg),
      snoovatar_img: text(user.snoovatarImg),
      subreddit: {
        default_set: true,
        display_name: `u_${user.name}`,
        display_name_prefixed: `u/${user.name}`,
        title: user.displayName,
        icon_img: text(user.iconImg),
        name: `t5_${user.id}`,
        public_description: '',
        subreddit_type: 'user',
        url: `/user/${user.name}/`,
        over_18: false,
        user_is_banned: false,
        subscribers: user.subscribers,
      },
    };
  };

  type Handler = (req: FastifyRequest) => Reply;
  /** `agentChecked`: the API and token hosts throttle generic User-Agents; the browser page does not. */
  const route = (method: 'GET' | 'POST', url: string, agentChecked: boolean, handler: Handler) =>
    app.route({
      method,
      url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const path = req.url.split('?')[0]!;
        const userAgent = req.headers['user-agent'] ?? '';
        log.push({
          method: req.method,
          path,
          query: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
          userAgent,
          auth: authScheme(req.headers.authorization),
          contentType: req.headers['content-type'],
        });
        const fault = faults.take(req.method, path);
        if (fault) {
          const base = statusError(fault.status);
          return send(reply, { status: fault.status, body: fault.body ?? base.body, headers: fault.headers });
        }
        if (agentChecked && GENERIC_AGENT.test(userAgent.trim())) return send(reply, tooManyRequests());
        const out = handler(req);
        const delay = delays.findIndex((d) => d.method === req.method && d.path === path);
        if (delay >= 0) await new Promise((resolve) => setTimeout(resolve, delays.splice(delay, 1)[0]!.ms));
        return send(reply, out);
      },
    });

  const authorize: Handler = (req) => {
    const q = req.query as Record<string, string | undefined>;
    // Reddit checks the client and the redirect URI first and shows a 400 page for every problem
    // with the request itself (GET_authorize in reddit's r2/controllers/oauth2.py); only the user's
    // answer goes back to the redirect URI.
    const client = oauth.apps.get(q.client_id ?? '');
    if (!client) return { status: 400, body: { message: 'Bad Request', error: 400, reason: 'OAUTH2_INVALID_CLIENT' } };
    const redirectUri = q.redirect_uri ?? '';
    if (!client.redirectUris.includes(redirectUri)) return { status: 400, body: { message: 'Bad Request', error: 400, reason: 'OAUTH2_INVALID_REDIRECT_URI' } };
    if (q.response_type !== 'code') return { status: 400, body: { message: 'Bad Request', error: 400, reason: 'OAUTH2_INVALID_RESPONSE_TYPE' } };
    // Reddit's scope parser takes commas as well as spaces.
    const scopes = (q.scope ?? '').split(/[\s,]+/).filter(Boolean);
    if (!scopes.length || scopes.some((s) => !REDDIT_KNOWN_SCOPES.has(s))) return { status: 400, body: { message: 'Bad Request', error: 400, reason: 'OAUTH2_INVALID_SCOPE' } };
    if (!q.state) return { status: 400, body: { message: 'Bad Request', error: 400, reason: 'NO_TEXT', fields: ['state'] } };
    const duration = q.duration ?? 'temporary';
    if (duration !== 'temporary' && duration !== 'permanent') return { status: 400, body: { message: 'Bad Request', error: 400, reason: 'INVALID_OPTION', fields: ['duration'] } };
    const userId = oauth.signedInUser;
    if (!userId || !users.has(userId)) return redirectBack(redirectUri, { error: 'access_denied' }, q.state);
    // Only duration=permanent gives a refresh token.
    const code = oauth.issueCode({ clientId: client.clientId, redirectUri, scopes, withRefresh: duration === 'permanent' })!;
    return redirectBack(redirectUri, { code }, q.state);
  };
  route('GET', '/api/v1/authorize', false, authorize);
  route('GET', '/api/v1/authorize.compact', false, authorize);

  const tokenBody = (issued: IssuedToken) => ({
    access_token: issued.accessToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
    scope: issued.scopes.join(' '),
  });

  route('POST', '/api/v1/access_token', true, (req) => {
    const basic = basicCredentials(req.headers.authorization);
    const client = basic && oauth.checkClient(basic.id, basic.secret);
    if (!client || client === 'invalid') return badClient();
    const form = new URLSearchParams(rawBody(req.body).toString('utf8'));
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const code = form.get('code');
      const redirectUri = form.get('redirect_uri');
      if (!code || !redirectUri) return tokenError('invalid_request');
      const issued = oauth.redeemCode({ clientId: client.clientId, code, redirectUri });
      // A bad, used or expired code, or another redirect_uri: HTTP 200 {"error": "invalid_grant"} (recorded).
      if (typeof issued === 'string') return tokenError('invalid_grant');
      return { status: 200, body: tokenBody(issued) };
    }
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      // A missing, unknown or revoked refresh token: HTTP 400 {"error": 400} (recorded).
      const refreshed = presented ? oauth.refresh(client.clientId, presented) : 'invalid';
      if (refreshed === 'invalid') return { status: 400, body: { error: 400 } };
      return { status: 200, body: tokenBody(refreshed) };
    }
    return tokenError('unsupported_grant_type');
  });

  route('POST', '/api/v1/revoke_token', true, (req) => {
    const basic = basicCredentials(req.headers.authorization);
    const client = basic && oauth.checkClient(basic.id, basic.secret);
    if (!client || client === 'invalid') return badClient();
    const token = new URLSearchParams(rawBody(req.body).toString('utf8')).get('token');
    if (token) oauth.revoke(token);
    // 204 until 2021, 200 since (praw-dev/prawcore pull 115).
    return { status: 200 };
  });

  /**
   * An oauth.reddit.com call: a live bearer token (else 401), the client's rate-limit window counted
   * and shown in x-ratelimit-* headers (429 over it), the scope the route needs (else 403), then the
   * handler with the token's user.
   */
  const api = (scope: string, handler: (req: FastifyRequest, user: RedditUser) => Reply): Handler => (req) => {
    const check = oauth.checkAccess(bearerToken(req.headers.authorization));
    if (!check.ok) return unauthorized();
    const nowSecs = clock.nowSecs();
    let window = windows.get(check.clientId);
    if (!window || nowSecs - window.startSecs >= WINDOW_SECS) {
      window = { startSecs: nowSecs, used: 0 };
      windows.set(check.clientId, window);
    }
    window.used += 1;
    const headers = {
      'x-ratelimit-used': String(window.used),
      'x-ratelimit-remaining': String(Math.max(0, WINDOW_LIMIT - window.used)),
      'x-ratelimit-reset': String(WINDOW_SECS - (nowSecs - window.startSecs)),
    };
    if (window.used > WINDOW_LIMIT) return { ...tooManyRequests(), headers };
    if (!check.scopes.includes(scope) && !check.scopes.includes('*')) return statusError(403, headers);
    const user = users.get(check.userId);
    if (!user) return unauthorized();
    const out = handler(req, user);
    return { ...out, headers: { ...headers, ...out.headers } };
  };

  route('GET', '/api/v1/me', true, api('identity', (req, user) => {
    const raw = (req.query as Record<string, string | undefined>).raw_json === '1';
    return { status: 200, body: meJson(user, raw) };
  }));

  registerPostingRoutes({ route, api, store, received, userExists: (name) => [...users.values()].some((u) => u.name.toLowerCase() === name.toLowerCase()) });

  app.setNotFoundHandler((_req, reply) => send(reply, statusError(404)));
  app.setErrorHandler((_error, _req, reply) => send(reply, statusError(500)));
  const server = await listen(app, opts);

  return {
    ...oauthControls(oauth, server, faults),
    addUser: (input = {}) => {
      const id = input.id ?? randomBytes(6).readUIntBE(0, 6).toString(36).slice(0, 8);
      const name = input.name ?? `redditor_${id}`;
      const user: RedditUser = {
        id,
        name,
        displayName: input.displayName ?? '',
        iconImg: input.iconImg ?? `https://styles.redditmedia.com/t5_${id}/styles/profileIcon_${id}.png?width=256&height=256&crop=256:256,smart&s=${randomBytes(20).toString('hex')}`,
        snoovatarImg: input.snoovatarImg ?? '',
        linkKarma: input.linkKarma ?? 1,
        commentKarma: input.commentKarma ?? 0,
        subscribers: input.subscribers ?? 0,
      };
      users.set(id, user);
      store.accounts.set(name.toLowerCase(), `t2_${id}`);
      return { ...user };
    },
    requests: () => structuredClone(log),
    addSubreddit: (input) => ({ ...store.addSubreddit(input) }),
    throttle: (userName, ms) => store.throttle(userName, ms),
    submissions: () => structuredClone(store.submissions),
    comments: (submissionId) => structuredClone(store.comments.filter((c) => !submissionId || c.linkId === submissionId || c.linkId === `t3_${submissionId}`)),
    forms: () => structuredClone(received),
    delayNextAnswer: (method, path, ms) => { delays.push({ method: method.toUpperCase(), path, ms }); },
    addComment: (input) => {
      const parent = input.on.startsWith('t1_') ? store.comments.find((c) => c.name === input.on) : undefined;
      const submission = store.submission(parent ? parent.linkId.slice(3) : input.on.replace(/^t3_/, ''));
      if (!submission) throw new Error(`no reddit submission or comment ${input.on}`);
      const comment = store.addComment({ author: input.author, body: input.body, parentId: parent?.name ?? submission.name, submission, score: input.score, createdUtc: input.createdUtc });
      return structuredClone(comment);
    },
    setSubmissionStats: (submissionId, stats) => {
      const submission = store.submission(submissionId.replace(/^t3_/, ''));
      if (!submission) throw new Error(`no reddit submission ${submissionId}`);
      Object.assign(submission, Object.fromEntries(Object.entries(stats).filter(([, v]) => v !== undefined)));
    },
  };
}
