// What every LinkedIn route module shares: the request view handlers get, and the guard of the
// versioned /rest/ API (LinkedIn-Version, bearer token, daily quotas, scopes) in LinkedIn's order.
import type { Reply } from '../../shared/http.ts';
import { accessDenied, emptyToken, expiredToken, invalidToken, nonexistentVersion, revokedToken, throttled, versionMissing } from '../errors.ts';
import type { LinkedInWorld } from '../state.ts';
import { isReply as isRefusal, protocolOf, type Protocol } from '../validate/restli.ts';

export interface RouteInput {
  /** The first value of each query parameter. */
  query: Record<string, string | undefined>;
  /** Every value of each query parameter, in order (validate/query.ts refuses repeats on API routes). */
  queryAll: Record<string, string[]>;
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
  /** 'METHOD /url-pattern', the key of daily quotas and of setDailyQuota(). */
  endpoint: string;
  /** The request's path and query exactly as sent (still URL-encoded). */
  rawUrl: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  handler(input: RouteInput): Reply | Promise<Reply>;
}

/** The member and app behind a bearer token. */
export interface Caller {
  sub: string;
  clientId: string;
  scopes: string[];
}

export const memberUrn = (sub: string) => `urn:li:person:${sub}`;
export const orgUrn = (id: number) => `urn:li:organization:${id}`;

/** The member behind the bearer token, or the 401 LinkedIn answers. */
export function authenticate(world: LinkedInWorld, headers: RouteInput['headers']): Caller | Reply {
  const match = /^Bearer\s+(\S*)$/i.exec(headers.authorization ?? '');
  if (!match || !match[1]) return emptyToken();
  const check = world.oauth.checkAccess(match[1]);
  if (!check.ok) return check.reason === 'revoked' ? revokedToken() : check.reason === 'expired' ? expiredToken() : invalidToken();
  return { sub: check.userId, clientId: check.clientId, scopes: check.scopes };
}

export const isReply = (value: Caller | Reply): value is Reply => 'status' in value;

/** What a /rest/ handler gets: the request and the Rest.li protocol it speaks. */
export type RestInput = RouteInput & { protocol: Protocol };

/** Versioned /rest/ calls: LinkedIn-Version YYYYMM (or YYYYMM.RR) must name a served version. */
function checkVersion(world: LinkedInWorld, headers: RouteInput['headers']): Reply | undefined {
  const version = headers['linkedin-version'];
  if (!version) return versionMissing();
  const match = /^(\d{6})(\.\d{2})?$/.exec(version);
  const now = new Date(world.clock.now());
  const current = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  if (!match || match[1]! < world.oldestVersion || match[1]! > current) return nonexistentVersion(version);
  return undefined;
}

/**
 * Wraps a /rest/ handler: version, Rest.li protocol, token, the day's quota, then `scopes` (any one
 * of them; an empty list leaves the scope check to the handler, for calls whose scope depends on the
 * author). The handler gets the protocol (validate/restli.ts): a call without
 * X-Restli-Protocol-Version is read as 1.0, as LinkedIn documents, not refused.
 */
export function restGuard(world: LinkedInWorld) {
  return (resource: string, scopes: string[], handler: (caller: Caller, input: RestInput) => Reply | Promise<Reply>) =>
    (input: RouteInput): Reply | Promise<Reply> => {
      const version = checkVersion(world, input.headers);
      if (version) return version;
      const protocol = protocolOf(input.headers['x-restli-protocol-version']);
      if (isRefusal(protocol)) return protocol;
      const caller = authenticate(world, input.headers);
      if (isReply(caller)) return caller;
      if (!world.quotas.spend(input.endpoint, caller.clientId, caller.sub, world.clock.now())) return throttled();
      if (scopes.length && !scopes.some((s) => caller.scopes.includes(s))) return accessDenied(resource);
      return handler(caller, { ...input, protocol });
    };
}

/** The scope writing as `author` needs: w_member_social for a person, w_organization_social for an organization. */
export const writeScopeFor = (author: string) => (author.startsWith('urn:li:organization:') ? 'w_organization_social' : 'w_member_social');
/** The scope reading `author`'s posts and comments needs (r_member_social is a restricted permission). */
export const readScopeFor = (author: string) => (author.startsWith('urn:li:organization:') ? 'r_organization_social' : 'r_member_social');

/** Rest.li paths carry URNs URL-encoded; Fastify hands params over decoded once. */
export function urnParam(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? '');
  } catch {
    return value ?? '';
  }
}
