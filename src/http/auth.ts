// Bearer API key authentication and the subscription gate, for every /v1 route (except those
// whose config says `apiKey: false`). The two are separate hooks so that the request limits run
// between them: a 402 is an answer to a known key and carries its X-RateLimit-* headers too.
// Invalid keys are counted per client address (auth-failures.ts).
//
// POST /mcp is also an OAuth protected resource (src/oauth/): it accepts an OAuth access token as the
// bearer (resolving to its grant's key record), and its 401s say where to get one (WWW-Authenticate
// with resource_metadata). An access token is for the MCP endpoint only (RFC 8707's audience): a /v1
// route takes it only from /mcp's own in-process tool calls, which carry this process's mark.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/pool.ts';
import { findAccessTokenOwner } from '../oauth/grants.ts';
import { bearerChallenge } from '../oauth/metadata.ts';
import { hashSecret, isAccessToken } from '../oauth/tokens.ts';
import { createKeyOwnerLookup, type KeyOwner, hashApiKey } from '../orgs/api-keys.ts';
import type { AuthFailureGuard } from './auth-failures.ts';
import { errorBody } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner: KeyOwner;
  }
  interface FastifyContextConfig {
    /** false: the route authenticates by another credential and skips the API key. */
    apiKey?: boolean;
    /** Set: the route is an OAuth protected resource, this URL its metadata's (RFC 9728); it accepts access tokens. */
    oauthResourceMetadata?: string;
  }
}

/** The header, and this process's secret value of it, that mark /mcp's in-process tool calls (routes/mcp.ts). */
export const MCP_FORWARD_HEADER = 'x-crier-mcp-forward';
export const MCP_FORWARD_MARK = randomBytes(32).toString('base64url');

export function installAuth(app: FastifyInstance, db: Db, failures: AuthFailureGuard): void {
  app.decorateRequest('owner', undefined as unknown as KeyOwner);
  const owners = createKeyOwnerLookup(db);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return; // CORS preflight carries no credentials
    // Routes that carry their own credential (a pending connect's session token) say so in their config.
    if (request.routeOptions.config?.apiKey === false) return;
    const resourceMetadata = request.routeOptions.config?.oauthResourceMetadata;
    const key = bearerToken(request);
    if (!key) return unauthorized(reply, 'Missing API key: send "Authorization: Bearer <API_KEY>"', resourceMetadata && bearerChallenge(resourceMetadata, false));
    const accessToken = isAccessToken(key) && (resourceMetadata !== undefined || isMcpToolCall(request));
    // Hashed once: the lookup and the failure guard both go by the credential's SHA-256, never itself.
    const hash = accessToken ? hashSecret(key) : hashApiKey(key);
    const blocked = failures.blockedFor(request.ip, hash);
    if (blocked) return tooManyFailures(reply, blocked);
    const owner = accessToken ? await findAccessTokenOwner(db, hash) : await owners.submit(hash);
    if (!owner) {
      const blockedNow = await failures.recordFailure(request.ip);
      if (blockedNow) return tooManyFailures(reply, blockedNow);
      return unauthorized(reply, accessToken ? 'Invalid or expired access token' : 'Invalid API key', resourceMetadata && bearerChallenge(resourceMetadata, true));
    }
    failures.recordSuccess(hash);
    request.owner = owner;
  });
}

/** A tool call POST /mcp makes in this process on behalf of its caller (the mark cannot come from outside). */
function isMcpToolCall(request: FastifyRequest): boolean {
  return request.headers[MCP_FORWARD_HEADER] === MCP_FORWARD_MARK;
}

/** 401; an OAuth protected resource's challenge names its metadata, every other route's is plain `Bearer`. */
function unauthorized(reply: FastifyReply, error: string, challenge = 'Bearer'): FastifyReply {
  return reply.status(401).header('www-authenticate', challenge).send({ success: false, error });
}

function tooManyFailures(reply: FastifyReply, retryAfter: number): FastifyReply {
  return reply
    .status(429)
    .header('retry-after', retryAfter)
    .send(errorBody(`Too many requests with an invalid API key from this address; retry in ${retryAfter} s`, 'too_many_auth_failures'));
}

/** 402 for a key whose organization's subscription is not active; installed after the request limits. */
export function installSubscriptionGate(app: FastifyInstance, defaultBillingUrl: string): void {
  app.addHook('onRequest', async (request, reply) => {
    const owner = request.owner as KeyOwner | undefined;
    if (!owner || owner.subscriptionStatus === 'active') return;
    return reply.status(402).send({
      ...errorBody(`The organization's subscription is ${owner.subscriptionStatus}; access returns when it is active again`, 'subscription_inactive'),
      billingUrl: owner.billingUrl ?? defaultBillingUrl,
    });
  });
}

/** The credential of an `Authorization: Bearer <credential>` header. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
