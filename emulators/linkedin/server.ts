// A local LinkedIn for tests and `crier start --sandbox`: the OAuth 2.0 authorization-code flow of
// www.linkedin.com (auto-consent, 60-day access tokens, programmatic refresh tokens only for apps
// switched to it, no rotation), the member's OpenID userinfo and the organizations the member
// administers, and the publishing side of the versioned /rest/ API (posts, images, documents,
// videos, comments) with daily quotas and LinkedIn's error bodies.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, firstValues, listen, send, type ListenOptions } from '../shared/http.ts';
import { oauthControls, OAuthServer, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { notFound, serverError } from './errors.ts';
import { callLog, publishingControls, type PublishingControls } from './controls.ts';
import { PublishingStore } from './publishing.ts';
import { DailyQuotas } from './quota.ts';
import { assetRoutes } from './routes/assets.ts';
import { commentRoutes } from './routes/comments.ts';
import { authenticate, isReply, type Route } from './routes/context.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { postRoutes } from './routes/posts.ts';
import { profileRoutes } from './routes/profile.ts';
import { statisticsRoutes } from './routes/statistics.ts';
import { registerUploads } from './routes/uploads.ts';
import { allValues, queryRefusal } from './validate/query.ts';
import { protocolOf } from './validate/restli.ts';
import {
  addMember, addOrganization, LINKEDIN_SCOPES, type AclState, type AddMemberInput, type AddOrganizationInput, type LinkedInAppInput,
  type LinkedInMember, type LinkedInOrganization, type LinkedInWorld, type OrgRole,
} from './state.ts';

export type { AclState, AddMemberInput, AddOrganizationInput, LinkedInAppInput, LinkedInMember, LinkedInOrganization, OrgRole } from './state.ts';
export { LINKEDIN_SCOPES } from './state.ts';
export type { LinkedInAssetView, LinkedInCall, LinkedInCommentView, LinkedInPostView } from './controls.ts';
export type { DailyQuota } from './quota.ts';
export type { PostStats } from './publishing.ts';
export type { PublishingControls } from './controls.ts';
export type { Mention } from './little.ts';

/** 60 days, as LinkedIn's member tokens. */
export const LINKEDIN_ACCESS_SECS = 60 * 24 * 3600;
/** 365 days, not extended by use. */
export const LINKEDIN_REFRESH_SECS = 365 * 24 * 3600;

export interface LinkedInEmulatorOptions extends ListenOptions {
  /** The oldest LinkedIn-Version (YYYYMM) still served; older ones get 426 NONEXISTENT_VERSION. Default 202501. */
  oldestVersion?: string;
  /** How long the same author's same commentary is refused as a duplicate (default 24 h). */
  duplicateWindowMs?: number;
}

/**
 * The common controls (signIn: the member who consents, the page redirects at once; revokeUser: every
 * token of theirs answers REVOKED_ACCESS_TOKEN / invalid_grant; omitNextRefreshToken: the next
 * refresh answers without refresh_token) and these.
 */
export interface LinkedInEmulator extends OAuthEmulatorControls, PublishingControls {
  /** Registers a developer app; `refreshTokens: true` makes it a partner app that gets refresh tokens. */
  addApp(app: LinkedInAppInput): void;
  /** Turns programmatic refresh tokens on or off for an app. */
  setRefreshTokens(clientId: string, enabled: boolean): void;
  /** A member; every field has a default, so addUser({}) works. */
  addUser(input?: AddMemberInput): LinkedInMember;
  /** An organization (company page), optionally with its administrators. */
  addOrganization(input?: AddOrganizationInput): LinkedInOrganization;
  /** Gives a member a role on an organization (ADMINISTRATOR/APPROVED by default). */
  grantRole(organizationId: number, sub: string, role?: OrgRole, state?: AclState): void;
}

export async function startLinkedInEmulator(opts: LinkedInEmulatorOptions = {}): Promise<LinkedInEmulator> {
  const clock = new Clock();
  // LinkedIn authorization codes live 30 minutes.
  const oauth = new OAuthServer(clock, { accessSecs: LINKEDIN_ACCESS_SECS, refreshSecs: LINKEDIN_REFRESH_SECS, rotateRefresh: false, echoRefresh: true, codeSecs: 1800 }, 'AQ');
  const world: LinkedInWorld = {
    clock,
    oauth,
    apps: new Map(),
    members: new Map(),
    organizations: new Map(),
    roles: [],
    oldestVersion: opts.oldestVersion ?? '202501',
    publishing: new PublishingStore(clock),
    quotas: new DailyQuotas(),
    processing: { imageMs: 0, documentMs: 0, videoMs: 0, perVideoMs: new Map(), stickNextVideo: false, failNextVideo: null },
    duplicateWindowMs: opts.duplicateWindowMs ?? 24 * 3600 * 1000,
    origin: '',
  };
  const faults = new FaultQueue();
  const calls = callLog(clock);
  const app = createApp(1024 * 1024);
  app.addHook('onResponse', async (req, reply) => calls.record(req.method, req.url, reply.statusCode));
  /** A queued fault for this request, as the reply it gets. */
  const faultFor = async (req: FastifyRequest) => {
    const fault = faults.take(req.method, req.url.split('?')[0]!);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    return fault && { status: fault.status, body: fault.body ?? serverError(fault.status).body, headers: fault.headers, afterHandling: fault.afterHandling };
  };

  const register = (route: Route) => {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = await faultFor(req);
        if (fault && !fault.afterHandling) return send(reply, fault);
        const endpoint = `${route.method} ${route.url}`;
        const queryAll = allValues(req.query);
        // The token is checked before Rest.li reads the query (a bad token is a 401 whatever the query).
        const protocol = protocolOf(req.headers['x-restli-protocol-version'] as string | undefined);
        const refused = queryRefusal(endpoint, queryAll, typeof protocol === 'number' ? protocol : 2);
        if (refused) {
          const caller = authenticate(world, req.headers as Record<string, string | undefined>);
          return send(reply, fault ?? (isReply(caller) ? caller : refused));
        }
        const answer = await route.handler({
          query: firstValues(req.query),
          queryAll,
          params: req.params as Record<string, string>,
          headers: req.headers as Record<string, string | undefined>,
          body: req.body,
          endpoint,
          rawUrl: req.url,
        });
        // An answer lost on its way back: the route did its work, the client sees the fault instead.
        return send(reply, fault ?? answer);
      },
    });
  };
  for (const route of [...oauthRoutes(world), ...profileRoutes(world), ...postRoutes(world), ...assetRoutes(world), ...commentRoutes(world), ...statisticsRoutes(world)]) register(route);
  await registerUploads(app, world, faultFor);
  app.setNotFoundHandler((req, reply) => send(reply, notFound(`No virtual resource found for ${req.method} ${req.url.split('?')[0]}`)));
  app.setErrorHandler((_error, _req, reply) => send(reply, serverError(500)));

  const server = await listen(app, opts);
  world.origin = server.url;
  return {
    ...oauthControls(oauth, server, faults),
    addApp: (input) => {
      const entry = { clientId: input.clientId, clientSecret: input.clientSecret, redirectUris: [...input.redirectUris] };
      oauth.addApp(entry);
      world.apps.set(input.clientId, { ...entry, refreshTokens: input.refreshTokens ?? false, scopes: input.scopes ?? [...LINKEDIN_SCOPES] });
    },
    setRefreshTokens: (clientId, enabled) => {
      const found = world.apps.get(clientId);
      if (!found) throw new Error(`no LinkedIn app ${clientId}`);
      found.refreshTokens = enabled;
    },
    addUser: (input = {}) => addMember(world, input),
    addOrganization: (input = {}) => addOrganization(world, input),
    grantRole: (organizationId, sub, role = 'ADMINISTRATOR', state = 'APPROVED') => {
      world.roles.push({ organizationId, sub, role, state });
    },
    ...publishingControls(world, calls),
  };
}
