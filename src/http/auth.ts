// Bearer API key authentication and the subscription gate, for every /v1 route (except those
// whose config says `apiKey: false`).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/pool.ts';
import { findKeyOwner, type KeyOwner } from '../orgs/orgs.ts';
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

export function installAuth(app: FastifyInstance, db: Db, defaultBillingUrl: string): void {
  app.decorateRequest('owner', undefined as unknown as KeyOwner);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return; // CORS preflight carries no credentials
    // Routes that carry their own credential (a pending connect's session token) say so in their config.
    if (request.routeOptions.config?.apiKey === false) return;
    const key = bearerToken(request);
    const owner = key ? await findKeyOwner(db, key) : undefined;
    if (!owner) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ success: false, error: key ? 'Invalid API key' : 'Missing API key: send "Authorization: Bearer <API_KEY>"' });
    }
    if (owner.subscriptionStatus !== 'active') {
      return reply.status(402).send({
        ...errorBody(`The organization's subscription is ${owner.subscriptionStatus}; access returns when it is active again`, 'subscription_inactive'),
        billingUrl: owner.billingUrl ?? defaultBillingUrl,
      });
    }
    request.owner = owner;
  });
}

/** The credential of an `Authorization: Bearer <credential>` header. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
