// Bearer API key authentication and the subscription gate, for every /v1 route (except those
// whose config says `apiKey: false`). The two are separate hooks so that the request limits run
// between them: a 402 is an answer to a known key and carries its X-RateLimit-* headers too.
// Invalid keys are counted per client address (auth-failures.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/pool.ts';
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
  }
}

export function installAuth(app: FastifyInstance, db: Db, failures: AuthFailureGuard): void {
  app.decorateRequest('owner', undefined as unknown as KeyOwner);
  const owners = createKeyOwnerLookup(db);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return; // CORS preflight carries no credentials
    // Routes that carry their own credential (a pending connect's session token) say so in their config.
    if (request.routeOptions.config?.apiKey === false) return;
    const key = bearerToken(request);
    if (!key) return unauthorized(reply, 'Missing API key: send "Authorization: Bearer <API_KEY>"');
    // Hashed once: the lookup and the failure guard both go by the key's SHA-256, never the key.
    const hash = hashApiKey(key);
    const blocked = failures.blockedFor(request.ip, hash);
    if (blocked) return tooManyFailures(reply, blocked);
    const owner = await owners.submit(hash);
    if (!owner) {
      const blockedNow = await failures.recordFailure(request.ip);
      return blockedNow ? tooManyFailures(reply, blockedNow) : unauthorized(reply, 'Invalid API key');
    }
    failures.recordSuccess(hash);
    request.owner = owner;
  });
}

function unauthorized(reply: FastifyReply, error: string): FastifyReply {
  return reply.status(401).header('www-authenticate', 'Bearer').send({ success: false, error });
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
