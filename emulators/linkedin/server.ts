// A local LinkedIn for tests and `crier start --sandbox`: the OAuth 2.0 authorization-code flow of
// www.linkedin.com (auto-consent, 60-day access tokens, programmatic refresh tokens only for apps
// switched to it, no rotation), the member's OpenID userinfo and the organizations the member
// administers (versioned /rest/ API, LinkedIn-Version required), with LinkedIn's error bodies.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../shared/clock.ts';
import { FaultQueue } from '../shared/faults.ts';
import { createApp, firstValues, listen, send, type ListenOptions } from '../shared/http.ts';
import { oauthControls, OAuthServer, type OAuthEmulatorControls } from '../shared/oauth.ts';
import { notFound, serverError } from './errors.ts';
import { apiRoutes, oauthRoutes, type Route } from './routes.ts';
import {
  addMember, addOrganization, LINKEDIN_SCOPES, type AclState, type AddMemberInput, type AddOrganizationInput, type LinkedInAppInput,
  type LinkedInMember, type LinkedInOrganization, type LinkedInWorld, type OrgRole,
} from './world.ts';

export type { AclState, AddMemberInput, AddOrganizationInput, LinkedInAppInput, LinkedInMember, LinkedInOrganization, OrgRole } from './world.ts';
export { LINKEDIN_SCOPES } from './world.ts';

/** 60 days, as LinkedIn's member tokens. */
export const LINKEDIN_ACCESS_SECS = 60 * 24 * 3600;
/** 365 days, not extended by use. */
export const LINKEDIN_REFRESH_SECS = 365 * 24 * 3600;

export interface LinkedInEmulatorOptions extends ListenOptions {
  /** The oldest LinkedIn-Version (YYYYMM) still served; older ones get 426 NONEXISTENT_VERSION. Default 202501. */
  oldestVersion?: string;
}

/**
 * The common controls (signIn: the member who consents, the page redirects at once; revokeUser: every
 * token of theirs answers REVOKED_ACCESS_TOKEN / invalid_grant; omitNextRefreshToken: the next
 * refresh answers without refresh_token) and these.
 */
export interface LinkedInEmulator extends OAuthEmulatorControls {
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
  };
  const faults = new FaultQueue();
  const app = createApp(1024 * 1024);

  const register = (route: Route) => {
    app.route({
      method: route.method,
      url: route.url,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = faults.take(req.method, req.url.split('?')[0]!);
        if (fault) return send(reply, { status: fault.status, body: fault.body ?? serverError(fault.status).body, headers: fault.headers });
        return send(reply, route.handler({
          query: firstValues(req.query),
          params: req.params as Record<string, string>,
          headers: req.headers as Record<string, string | undefined>,
          body: req.body,
        }));
      },
    });
  };
  for (const route of [...oauthRoutes(world), ...apiRoutes(world)]) register(route);
  app.setNotFoundHandler((req, reply) => send(reply, notFound(`No virtual resource found for ${req.method} ${req.url.split('?')[0]}`)));
  app.setErrorHandler((_error, _req, reply) => send(reply, serverError(500)));

  const server = await listen(app, opts);
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
  };
}
