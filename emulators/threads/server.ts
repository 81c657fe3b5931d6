// A local Threads API (threads.com authorize window + graph.threads.net) for tests and
// `crier start --sandbox`: the OAuth flow with short-lived, long-lived and refreshed tokens, and the
// profile of the connected user, with Meta's error envelope. Every path is served at one origin
// (CRIER_THREADS_BASE_URL replaces both hosts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, firstValues, listen, send, type ListenOptions } from '../shared/http.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';
import { oauthControls, OAuthServer, tokenCallsOf, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { accountControls, type AccountControls } from './controls/accounts.ts';
import { engagementControls, type EngagementControls } from './controls/engagement.ts';
import { publishingControls, type PublishingControls } from './controls/publishing.ts';
import { metaError, serverError, unknownPath } from './errors.ts';
import { deleteRoutes } from './routes/delete.ts';
import { insightRoutes } from './routes/insights.ts';
import { nodeRoutes } from './routes/nodes.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { profileRoutes } from './routes/profile.ts';
import { publishingRoutes } from './routes/publishing.ts';
import { replyRoutes } from './routes/replies.ts';
import type { ThreadsRoute } from './routes/route.ts';
import type { PublishingSettings, ThreadsSettings, ThreadsWorld } from './state.ts';
import { paramsOf } from './validate.ts';

export type { ThreadsUser, ThreadsSettings, ThreadsMedia, ThreadsContainer, PublishingSettings, UserInsights } from './state.ts';
export type { AddThreadsUserInput } from './controls/accounts.ts';
export type { SentWebhook } from './webhooks.ts';

export interface ThreadsEmulatorOptions extends ListenOptions, Partial<ThreadsSettings> {
  /** Authorization codes live this long (default 1 h, as Meta's Instagram/Threads codes). */
  codeSecs?: number;
  /** Publishing limits and processing times (defaults: Meta's 250 posts, 1,000 replies per 24 h; processing below). */
  publishing?: Partial<PublishingSettings>;
  /** Certificate authorities (PEM) the media fetch trusts besides the system's: a test's HTTPS hosts. */
  fetchCa?: string[];
  /** How media is downloaded instead of the emulator's own fetch (shared/media-fetch.ts): the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
  /** Deletes allowed per moving 24 h (delete-posts doc: 100). */
  deleteQuotaTotal?: number;
}

/** One request the emulator answered, for tests: the Graph parameters (query and body) it carried. */
export interface ThreadsCall {
  method: string;
  path: string;
  params: Record<string, string | undefined>;
  status: number;
}

/**
 * The common controls (an app is a Threads app id and secret with its valid OAuth redirect URIs;
 * clock: also ages a long-lived token past 24 h; revokeUser: every token of theirs answers 190/458;
 * omitNextRefreshToken: no effect, Threads has no refresh tokens) and these.
 */
export interface ThreadsEmulator extends OAuthEmulatorControls, AccountControls, PublishingControls, EngagementControls {
  /** Every request answered, in order. */
  calls(): ThreadsCall[];
  /** Token calls by grant: authorization_code, th_exchange_token, th_refresh_token. */
  tokenCalls(grant?: string): { grant: string; clientId: string; at: number }[];
}

/** X-App-Usage: call_count, total_cputime, total_time as percentages; here from the calls answered (Meta's floor: 4800 x 10 impressions). */
const appUsage = (calls: number) => {
  const percent = Math.min(100, Math.floor((calls * 100) / 48_000));
  return JSON.stringify({ call_count: percent, total_cputime: percent, total_time: percent });
};

export async function startThreadsEmulator(opts: ThreadsEmulatorOptions = {}): Promise<ThreadsEmulator> {
  const clock = new Clock();
  const settings: ThreadsSettings = {
    shortLivedSecs: opts.shortLivedSecs ?? 3600,
    longLivedSecs: opts.longLivedSecs ?? 60 * 24 * 3600,
    minRefreshAgeSecs: opts.minRefreshAgeSecs ?? 24 * 3600,
  };
  const oauth = new OAuthServer(clock, { accessSecs: settings.shortLivedSecs, refreshSecs: null, rotateRefresh: false, codeSecs: opts.codeSecs ?? 3600 }, 'THQ');
  const publishing: PublishingSettings = {
    quotaTotal: 250, replyQuotaTotal: 1000, quotaDurationSecs: 86_400, expiryMs: 24 * 3600_000,
    // Text and images are ready at once; a video takes a while (Meta: seconds to minutes).
    processingMs: { TEXT: 0, IMAGE: 0, VIDEO: 1500, CAROUSEL: 0 },
    ...opts.publishing,
  };
  const world: ThreadsWorld = {
    clock, oauth, users: new Map(), longLived: new Set(), settings,
    publishing: { containers: new Map(), media: [], settings: publishing, faults: { notFoundPublishes: 0 }, fetchCa: opts.fetchCa ?? [], ...(opts.fetchMedia ? { fetchMedia: opts.fetchMedia } : {}) },
    engagement: { deleteQuotaTotal: opts.deleteQuotaTotal ?? 100, deletes: [], userInsights: new Map(), deliveries: [] },
  };
  const calls: ThreadsCall[] = [];
  const faults = new FaultQueue();
  const app = createApp(1024 * 1024);

  const register = (route: ThreadsRoute) => {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const path = req.url.split('?')[0]!;
        const request = { query: firstValues(req.query), body: req.body, headers: req.headers, params: (req.params ?? {}) as Record<string, string> };
        const fault = faults.take(req.method, path);
        let out;
        if (fault) {
          if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          const base = fault.status >= 500 ? serverError(fault.status) : metaError('Emulated failure', 1, undefined, fault.status);
          out = { status: fault.status, body: fault.body ?? base.body, headers: fault.headers };
        } else {
          out = await route.handler(request);
        }
        calls.push({ method: req.method, path, params: paramsOf(request), status: out.status });
        // Graph answers carry the app's usage (percentages of its rolling-24 h allowance).
        const usage: Record<string, string> = route.url.startsWith('/:version') ? { 'x-app-usage': appUsage(calls.length) } : {};
        return send(reply, { ...out, headers: { ...usage, ...out.headers } });
      },
    });
  };
  for (const route of [...oauthRoutes(world), ...profileRoutes(world), ...publishingRoutes(world), ...nodeRoutes(world), ...replyRoutes(world), ...insightRoutes(world), ...deleteRoutes(world)]) register(route);
  app.setNotFoundHandler((_req, reply) => send(reply, unknownPath()));
  app.setErrorHandler((_error, _req, reply) => send(reply, serverError()));

  const server = await listen(app, opts);
  const accounts = accountControls(world);
  return {
    ...oauthControls(oauth, server, faults),
    ...accounts,
    tokenCalls: tokenCallsOf(oauth),
    calls: () => structuredClone(calls),
    ...publishingControls(world),
    ...engagementControls(world, accounts.addUser),
  };
}
