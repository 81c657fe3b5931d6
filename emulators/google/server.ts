// A local Google for tests and `crier start --sandbox`, serving on ONE origin every Google path a
// connect uses: the OAuth consent page (accounts.google.com), the token and revoke endpoints
// (oauth2.googleapis.com), YouTube Data v3 channels.list (www.googleapis.com) and the Business
// Profile account and location listings (mybusinessaccountmanagement / mybusinessbusinessinformation).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue, type FaultSpec } from '../shared/faults.ts';
import { createApp, listen, send, type ListenOptions } from '../shared/http.ts';
import { OAuthServer, type OAuthEmulatorApp } from '../shared/oauth.ts';
import { apiRoutes } from './api-routes.ts';
import { richError } from './errors.ts';
import { oauthRoutes, revokeGrant } from './oauth-routes.ts';
import {
  GoogleStore, type AddBusinessAccountInput, type AddLocationInput, type AddUserInput, type GoogleBusinessAccount, type GoogleChannel,
  type GoogleLocation, type GoogleUser,
} from './store.ts';
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
}

export interface GoogleEmulator {
  url: string;
  /** Move it forward to expire access tokens and codes. */
  clock: Clock;
  close(): Promise<void>;
  oauth: OAuthServer;
  /** Registers an OAuth client (web application) with its authorized redirect URIs. */
  addApp(app: OAuthEmulatorApp): void;
  /** The user who consents on the consent page (auto-consent). */
  signIn(userId: string | undefined): void;
  /** A Google user; by default with a YouTube channel and a personal Business Profile account with one location. */
  addUser(input?: AddUserInput): GoogleUser;
  /** The user removed every app's access: all their tokens die (refresh → invalid_grant, API → 401). */
  revokeUser(userId: string): void;
  /** The next token answer carries no refresh_token. */
  omitNextRefreshToken(): void;
  /** At the next consent screen the user unticks these scopes (granular consent). */
  declineScopesAtNextConsent(scopes: string[]): void;
  /** Gives the user a channel (or removes it with null). */
  setChannel(userId: string, channel: Partial<Omit<GoogleChannel, 'id'>> & { id?: string } | null): GoogleChannel | null;
  addBusinessAccount(userId: string, input?: AddBusinessAccountInput): GoogleBusinessAccount;
  addLocation(accountName: string, input?: AddLocationInput): GoogleLocation;
  /** Answers the next matching request(s) with this status instead of handling them. */
  failNext(fault: FaultSpec): void;
}

export async function startGoogleEmulator(opts: GoogleEmulatorOptions = {}): Promise<GoogleEmulator> {
  const clock = new Clock();
  const oauth = new OAuthServer(clock, { accessSecs: opts.accessSecs ?? 3599, refreshSecs: opts.refreshSecs ?? 180 * 24 * 3600, rotateRefresh: false, codeSecs: 600 }, 'ya29');
  const world: GoogleWorld = {
    clock,
    oauth,
    store: new GoogleStore(clock),
    consents: new Map(),
    offlineCodes: new Map(),
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
  app.setNotFoundHandler((req, reply) => send(reply, richError(404, `Method not found: ${req.method} ${req.url.split('?')[0]}`)));
  app.setErrorHandler((_error, _req, reply) => send(reply, richError(500, 'Internal error encountered.')));

  const server = await listen(app, opts);
  return {
    url: server.url,
    clock,
    close: () => server.close(),
    oauth,
    addApp: (client) => oauth.addApp(structuredClone(client)),
    signIn: (userId) => oauth.signIn(userId),
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
    failNext: (fault) => faults.add(fault),
  };
}

function firstValues(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    out[name] = Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
  }
  return out;
}
