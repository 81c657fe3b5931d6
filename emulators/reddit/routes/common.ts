// What every reddit route shares. `route`: each request logged, a test's fault answered first, a
// generic User-Agent throttled (429) where Reddit checks it, an answer held back when a test asked.
// `api`: an oauth.reddit.com call — a live bearer token (else 401), the client's rate-limit window
// counted and shown in X-Ratelimit-Used/Remaining/Reset (429 over it), the scope the route needs
// (else 403), then the handler with the token's user.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../shared/clock.ts';
import type { FaultQueue } from '../../shared/faults.ts';
import { authScheme, bearerToken, send, type Reply } from '../../shared/http.ts';
import type { OAuthServer } from '../../shared/oauth.ts';
import { statusError, tooManyRequests, unauthorized } from '../errors.ts';
import type { RedditState, RedditUser } from '../state.ts';

/** Free tier: 100 queries per minute per client id, averaged over a 10-minute window. */
const WINDOW_SECS = 600;
const WINDOW_LIMIT = 1000;
/**
 * User-Agents Reddit throttles as generic: library defaults and empty ones. Reddit asks for
 * `<platform>:<app ID>:<version> (by /u/<username>)`.
 */
const GENERIC_AGENT = /^(?:$|node(?:-fetch)?\b|undici\b|axios\b|got\b|python-requests\b|python-urllib\b|aiohttp\b|curl\b|wget\b|go-http-client\b|okhttp\b|java\b|libwww-perl\b|ruby\b)/i;

export type Handler = (req: FastifyRequest) => Reply;
export type ApiHandler = (req: FastifyRequest, user: RedditUser) => Reply;

export interface Routing {
  /** `agentChecked`: the API and token hosts throttle generic User-Agents; the browser page does not. */
  route(method: 'GET' | 'POST', url: string, agentChecked: boolean, handler: Handler): void;
  api(scope: string, handler: ApiHandler): Handler;
  state: RedditState;
  oauth: OAuthServer;
}

export function routing(app: FastifyInstance, state: RedditState, oauth: OAuthServer, clock: Clock, faults: FaultQueue): Routing {
  const route: Routing['route'] = (method, url, agentChecked, handler) => void app.route({
    method,
    url,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const path = req.url.split('?')[0]!;
      const userAgent = req.headers['user-agent'] ?? '';
      state.log.push({
        method: req.method,
        path,
        query: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
        userAgent,
        auth: authScheme(req.headers.authorization),
        contentType: req.headers['content-type'],
      });
      const fault = faults.take(req.method, path);
      if (fault) return send(reply, { status: fault.status, body: fault.body ?? statusError(fault.status).body, headers: fault.headers });
      if (agentChecked && GENERIC_AGENT.test(userAgent.trim())) return send(reply, tooManyRequests());
      const out = handler(req);
      const delay = state.delays.findIndex((d) => d.method === req.method && d.path === path);
      if (delay >= 0) await new Promise((resolve) => setTimeout(resolve, state.delays.splice(delay, 1)[0]!.ms));
      return send(reply, out);
    },
  });

  const api: Routing['api'] = (scope, handler) => (req) => {
    const check = oauth.checkAccess(bearerToken(req.headers.authorization));
    if (!check.ok) return unauthorized();
    const { headers, over } = countCall(state, check.clientId, clock.nowSecs());
    if (over) return { ...tooManyRequests(), headers };
    if (!check.scopes.includes(scope) && !check.scopes.includes('*')) return statusError(403, headers);
    const user = state.users.get(check.userId);
    if (!user) return unauthorized();
    const out = handler(req, user);
    return { ...out, headers: { ...headers, ...out.headers } };
  };

  return { route, api, state, oauth };
}

/** One more call in the client's window: the X-Ratelimit-* headers, and whether it is over the limit. */
function countCall(state: RedditState, clientId: string, nowSecs: number): { headers: Record<string, string>; over: boolean } {
  let window = state.windows.get(clientId);
  if (!window || nowSecs - window.startSecs >= WINDOW_SECS) {
    window = { startSecs: nowSecs, used: 0 };
    state.windows.set(clientId, window);
  }
  window.used += 1;
  const headers = {
    'x-ratelimit-used': String(window.used),
    'x-ratelimit-remaining': String(Math.max(0, WINDOW_LIMIT - window.used)),
    'x-ratelimit-reset': String(WINDOW_SECS - (nowSecs - window.startSecs)),
  };
  return { headers, over: window.used > WINDOW_LIMIT };
}
