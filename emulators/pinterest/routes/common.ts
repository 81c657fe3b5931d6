// What every v5 API route shares: the bearer token checked for the scopes the description's security
// lists (401 code 2, 403 code 29), the declared query parameters checked (400), the call logged in
// order, and `{items, bookmark}` paging.
import type { FastifyRequest } from 'fastify';
import { bearerToken, firstValues, type Reply } from '../../shared/http.ts';
import type { OAuthServer } from '../../shared/oauth.ts';
import type { WindowLimiter } from '../../shared/rate.ts';
import { authFailed, invalid, notPermitted, rateLimited } from '../errors.ts';
import type { PinterestState } from '../state.ts';
import { queryProblems, queryValues, scopesOf } from '../validate.ts';

/** Downloads a URL the way Pinterest's fetcher would (the emulator's own fetch). */
export type Fetcher = (url: string) => Promise<{ bytes: Buffer; contentType: string }>;

export interface ApiContext {
  state: PinterestState;
  oauth: OAuthServer;
  fetcher: Fetcher;
  /** Counts writes (pins, media) against the state's writeLimit. */
  limiter: WindowLimiter;
  /** Where the emulator listens (upload URLs point there). */
  origin(): string;
  now(): number;
}

export type Handler = (req: FastifyRequest) => Reply | Promise<Reply>;
export type Route = (method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler, bodyLimit?: number) => void;
export type ApiUser = { id: string; username: string };

export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** The emulator's (Fastify) path, /v5/… */
  url: string;
  /** The operation's path in the description, below /v5: "/pins/{pin_id}". */
  template: string;
  /** The operation's own answer to a parameter it refuses; default code 1 naming the problem. */
  refuse?: (problem: string) => Reply;
  bodyLimit?: number;
}

/** Registers an API operation: auth and scopes, then its query parameters, then `handle`; each call logged. */
export function operation(route: Route, ctx: ApiContext, op: Operation, handle: (user: ApiUser, req: FastifyRequest) => Reply | Promise<Reply>): void {
  const scopes = scopesOf(op.method, op.template);
  const refuse = op.refuse ?? ((problem: string) => invalid(`Invalid parameters: ${problem}`));
  route(op.method, op.url, async (req) => {
    const user = userOf(ctx, req, scopes);
    let reply: Reply;
    if ('status' in user) reply = user;
    else {
      const [problem] = queryProblems(op.method, op.template, queryValues(req.url));
      reply = problem ? refuse(problem) : await handle(user, req);
    }
    ctx.state.calls.push({ method: req.method, path: req.url.split('?')[0]!, status: reply.status, query: firstValues(req.query), ...('status' in user ? {} : { userId: user.id }) });
    return reply;
  }, op.bodyLimit);
}

function userOf(ctx: ApiContext, req: FastifyRequest, scopes: string[]): ApiUser | Reply {
  const check = ctx.oauth.checkAccess(bearerToken(req.headers.authorization));
  const username = check.ok ? ctx.state.users.get(check.userId)?.username : undefined;
  if (!check.ok || username === undefined) return authFailed();
  if (!scopes.every((s) => check.scopes.includes(s))) return notPermitted();
  return { id: check.userId, username };
}

/** `{items, bookmark}` paging: page_size (1 to 250, default 25, checked by the description); the bookmark is an opaque offset. */
export function paged(all: Record<string, unknown>[], query: Record<string, string | undefined>): Reply {
  const size = query.page_size === undefined ? 25 : Number(query.page_size);
  const start = query.bookmark ? Number(Buffer.from(query.bookmark, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(start) || start < 0) return invalid("Invalid parameters: 'bookmark' is not valid");
  const end = start + size;
  return { status: 200, body: { items: all.slice(start, end), bookmark: end < all.length ? Buffer.from(String(end)).toString('base64url') : null } };
}

/** 429 code 8 once the user's writes exceed the state's writeLimit in its window; undefined while allowed. */
export function writeRefusal(ctx: ApiContext, user: ApiUser): Reply | undefined {
  const limit = ctx.state.writeLimit;
  if (!limit) return undefined;
  const result = ctx.limiter.consume(user.id, limit.limit, limit.windowMs, ctx.now());
  if (result.ok) return undefined;
  return rateLimited({ 'x-ratelimit-limit': String(result.limit), 'x-ratelimit-remaining': String(result.remaining), 'x-ratelimit-reset': String(result.reset) });
}
