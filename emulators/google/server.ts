// A local Google for tests and `crier start --sandbox`, serving on ONE origin every Google path a
// connect uses: the OAuth consent page (accounts.google.com), the token and revoke endpoints
// (oauth2.googleapis.com), YouTube Data v3 channels.list (www.googleapis.com) and the Business
// Profile account and location listings (mybusinessaccountmanagement / mybusinessbusinessinformation).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, firstValues, listen, send, type ListenOptions } from '../shared/http.ts';
import { oauthControls, OAuthServer, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { apiRoutes } from './api-routes.ts';
import { mountBusiness, type BusinessControls } from './business/index.ts';
import { mountYoutube, type YoutubeControls } from './youtube/index.ts';
import { richError } from './errors.ts';
import { oauthRoutes, revokeGrant } from './oauth-routes.ts';
import {
  GoogleStore, type AddBusinessAccountInput, type AddLocationInput, type AddUserInput, type GoogleBusinessAccount, type GoogleChannel,
  type GoogleLocation, type GoogleUser,
} from './store.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';
import type { GoogleWorld } from './world.ts';

export type { AddBusinessAccountInput, AddLocationInput, AddUserInput as GoogleAddUserInput, GoogleBusinessAccount, GoogleChannel, GoogleLocation, GoogleUser } from './store.ts';

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

/**
 * The common controls (an app is an OAuth web client with its authorized redirect URIs; revokeUser:
 * the user removed every app's access, all their grants die: refresh → invalid_grant, API → 401;
 * omitNextRefreshToken: the next token answer of either grant carries no refresh_token) and these.
 */
export interface GoogleEmulator extends OAuthEmulatorControls {
  /** A Google user; by default with a YouTube channel and a personal Business Profile account with one location. */
  addUser(input?: AddUserInput): GoogleUser;
  /** At the next consent screen the user unticks these scopes (granular consent). */
  declineScopesAtNextConsent(scopes: string[]): void;
  /** Gives the user a channel (or removes it with null). */
  setChannel(userId: string, channel: Partial<Omit<GoogleChannel, 'id'>> & { id?: string } | null): GoogleChannel | null;
  addBusinessAccount(userId: string, input?: AddBusinessAccountInput): GoogleBusinessAccount;
  addLocation(accountName: string, input?: AddLocationInput): GoogleLocation;
  /** YouTube: uploads, videos, thumbnails, comments and replies, statistics, the quota (youtube/). */
  youtube: YoutubeControls;
  /** Business Profile localPosts (business/). */
  business: BusinessControls;
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

  for (const route of [...oauthRoutes(world), ...apiRoutes(world)]) {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = faults.take(req.method, req.url.split('?')[0]!);
        if (fault) return send(reply, { status: fault.status, headers: fault.headers, body: fault.body ?? richError(fault.status, 'The service is currently unavailable.').body });
        return send(reply, route.handler({
          query: firstValues(req.query),
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
  return {
    ...oauthControls(oauth, server, faults),
    addUser: (input = {}) => world.store.addUser(input),
    revokeUser: (userId) => {
      const clients = new Set([...world.grants.values()].filter((g) => g.userId === userId).map((g) => g.clientId));
      for (const clientId of clients) revokeGrant(world, userId, clientId);
      oauth.revokeUser(userId);
    },
    omitNextRefreshToken: () => {
      world.omitNextRefresh = true;
      oauth.omitNextRefreshToken();
    },
    declineScopesAtNextConsent: (scopes) => {
      world.declineNext = new Set(scopes);
    },
    setChannel: (userId, channel) => world.store.setChannel(userId, channel),
    addBusinessAccount: (userId, input) => world.store.addBusinessAccount(userId, input),
    addLocation: (accountName, input) => world.store.addLocation(accountName, input),
    youtube,
    business,
  };
}
