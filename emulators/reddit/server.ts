// A local Reddit for tests and `crier start --sandbox`, www.reddit.com's OAuth pages and
// oauth.reddit.com at one origin: the authorize page, token and revoke endpoints (routes/oauth.ts),
// /api/v1/me (routes/account.ts), posting and what comes after (routes/links-and-comments.ts,
// listings.ts, users.ts, flair.ts), the posting forms held to Reddit's documented shapes
// (validate.ts), Reddit's error bodies (errors.ts) and the controls tests steer it by (controls.ts).
// Refresh tokens (duration=permanent) do not rotate; access tokens live an hour. Requests with a
// generic User-Agent are throttled (429), as Reddit does. This file only wires them.
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, listen, send, type ListenOptions } from '../shared/http.ts';
import { oauthControls, OAuthServer, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { redditControls, type RedditControls } from './controls.ts';
import { statusError } from './errors.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { routing } from './routes/common.ts';
import { registerFlairRoutes } from './routes/flair.ts';
import { registerLinkAndCommentRoutes } from './routes/links-and-comments.ts';
import { registerListingRoutes } from './routes/listings.ts';
import { registerOAuthRoutes } from './routes/oauth.ts';
import { registerUserRoutes } from './routes/users.ts';
import { RedditState } from './state.ts';

export type { FaultSpec } from '../shared/faults.ts';
export type { AddCommentInput, AddRedditUserInput, SubmissionStats } from './controls.ts';
export { REDDIT_KNOWN_SCOPES } from './routes/oauth.ts';
export type { RedditRequestLog, RedditUser } from './state.ts';

export const ACCESS_TOKEN_SECS = 3600;
/** Authorization codes live 10 minutes (OAuth2AuthorizationCode._ttl in reddit's source). */
const CODE_SECS = 600;

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
export interface RedditEmulator extends OAuthEmulatorControls, RedditControls {}

export async function startRedditEmulator(opts: RedditEmulatorOptions = {}): Promise<RedditEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: ACCESS_TOKEN_SECS, refreshSecs: 10 * 365 * 24 * 3600, rotateRefresh: false, echoRefresh: opts.echoRefreshToken ?? false, codeSecs: CODE_SECS }, 'reddit');
  const faults = new FaultQueue();
  const state = new RedditState(clock);
  const app = createApp(1024 * 1024);
  const routes = routing(app, state, oauth, clock, faults);
  registerOAuthRoutes(routes);
  registerAccountRoutes(routes);
  registerLinkAndCommentRoutes(routes);
  registerListingRoutes(routes);
  registerUserRoutes(routes);
  registerFlairRoutes(routes);
  app.setNotFoundHandler((_req, reply) => send(reply, statusError(404)));
  app.setErrorHandler((_error, _req, reply) => send(reply, statusError(500)));
  const server = await listen(app, opts);
  return { ...oauthControls(oauth, server, faults), ...redditControls(state) };
}
