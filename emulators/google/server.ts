// A local Google for tests and `crier start --sandbox`, serving on ONE origin every Google path a
// connect uses: the OAuth consent page (accounts.google.com), the token and revoke endpoints
// (oauth2.googleapis.com), YouTube Data v3 (www.googleapis.com), the Business Profile account and
// location listings (mybusinessaccountmanagement / mybusinessbusinessinformation), localPosts
// (mybusiness v4) and the Performance API. Only wiring: what it remembers is in state/, the routes in
// routes/, youtube/ and business/, the request checks in validate/, the envelopes in errors.ts and
// the handle in controls.ts (README, "Where things are").
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, listen, send, type ListenOptions } from '../shared/http.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';
import { OAuthServer } from '../shared/oauth.ts';
import { mountBusiness } from './business/index.ts';
import { googleControls, type GoogleEmulator } from './controls.ts';
import { richError } from './errors.ts';
import { accountRoutes } from './routes/accounts.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { GoogleStore } from './state/accounts.ts';
import type { GoogleWorld } from './state/world.ts';
import { allValues } from './validate/query.ts';
import { mountYoutube } from './youtube/index.ts';

export type { GoogleEmulator } from './controls.ts';
export type { AddBusinessAccountInput, AddLocationInput, AddUserInput as GoogleAddUserInput, GoogleBusinessAccount, GoogleChannel, GoogleLocation, GoogleUser } from './state/accounts.ts';

export interface GoogleEmulatorOptions extends ListenOptions {
  /** Access token lifetime (Google: 3599 s). */
  accessSecs?: number;
  /**
   * Refresh token lifetime. Google's do not expire on a schedule (they die when revoked or after ~6
   * months unused); an app whose consent screen is in "Testing" gets 7-day ones. Default 180 days.
   */
  refreshSecs?: number;
  /** How Business Profile fetches a post's photo instead of the emulator's own fetch (shared/media-fetch.ts): the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
}

export async function startGoogleEmulator(opts: GoogleEmulatorOptions = {}): Promise<GoogleEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: opts.accessSecs ?? 3599, refreshSecs: opts.refreshSecs ?? 180 * 24 * 3600, rotateRefresh: false, codeSecs: 600 }, 'ya29');
  const world: GoogleWorld = {
    clock,
    oauth,
    store: new GoogleStore(clock),
    consents: new Map(),
    grants: new Map(),
    revokedTokens: new Set(),
    declineNext: new Set(),
    omitNextRefresh: false,
  };
  const faults = new FaultQueue();
  const app = createApp(1024 * 1024);

  for (const route of [...oauthRoutes(world), ...accountRoutes(world)]) {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = faults.take(req.method, req.url.split('?')[0]!);
        if (fault) return send(reply, { status: fault.status, headers: fault.headers, body: fault.body ?? richError(fault.status, 'The service is currently unavailable.').body });
        return send(reply, route.handler({
          query: allValues(req.query),
          params: req.params as Record<string, string>,
          body: req.body,
          headers: req.headers as Record<string, string | undefined>,
        }));
      },
    });
  }
  const youtube = mountYoutube(app, world, faults);
  const business = mountBusiness(app, world, faults, opts.fetchMedia);
  app.setNotFoundHandler((req, reply) => send(reply, richError(404, `Method not found: ${req.method} ${req.url.split('?')[0]}`)));
  app.setErrorHandler((_error, _req, reply) => send(reply, richError(500, 'Internal error encountered.')));

  const server = await listen(app, opts);
  return googleControls(world, server, faults, { youtube, business });
}
