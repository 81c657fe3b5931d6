// Bearer API key authentication and the subscription gate, for every /v1 route.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/pool.ts';
import { findKeyOwner, type KeyOwner } from '../orgs/orgs.ts';
import { errorBody } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner: KeyOwner;
  }
}

export function installAuth(app: FastifyInstance, db: Db, defaultBillingUrl: string): void {
  app.decorateRequest('owner', undefined as unknown as KeyOwner);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return; // CORS preflight carries no credentials
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

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
