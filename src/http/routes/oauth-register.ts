// POST /oauth/register: dynamic client registration (RFC 7591) for MCP clients, public clients only
// (src/oauth/clients.ts). No API key: a client registers before anyone has signed in. OAuth, not
// part of the /v1 API: hidden from the OpenAPI document, errors in RFC 7591's shape.
//
// Since anyone may call it, each client address may register REGISTRATIONS_PER_WINDOW times per
// window, refused attempts included; past that the answer is 429 with Retry-After. The counters are
// the request limits' (limits/request-hook.ts): in this process's memory, or in Redis when REDIS_URL
// is set, so every API process counts against one limit. They are the same counters that limit
// failed authentications (http/auth-failures.ts). This also works with no Redis, and keeps no
// addresses in the database. Behind a reverse proxy, CRIER_TRUST_PROXY makes the address the client's.
// An IPv6 client is counted by its /64 network: one machine usually holds a whole /64, so counting
// single addresses would let it register without limit.
// A client registers once per installation, not per session, so the limit never meets a real one.
// It matches the default of the MCP SDK's own registration handler: 20 an hour.
import type { FastifyInstance } from 'fastify';
import { isIPv6 } from 'node:net';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { createCounterStore } from '../../limits/request-hook.ts';
import { registerClient } from '../../oauth/clients.ts';
import { answerOAuthErrors, OAuthError } from '../../oauth/errors.ts';
import { REGISTER_PATH } from '../../oauth/metadata.ts';
import type { AppContext } from '../context.ts';

export const REGISTRATIONS_PER_WINDOW = 20;
export const REGISTRATION_WINDOW_SECONDS = 3600;

export async function oauthRegisterRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    answerOAuthErrors(scope);
    const counters = await createCounterStore(ctx.config, scope);
    scope.addHook('onClose', () => counters.close());
    const registrations = counters.limiter('oauth-register', REGISTRATIONS_PER_WINDOW, REGISTRATION_WINDOW_SECONDS);
    // Any other type of body is read as nothing, and refused as metadata that is not a JSON object.
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    // Counted before the body is read: a refused attempt costs a count, not a parse.
    scope.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'POST') return;
      try {
        await registrations.consume(registrantOf(request.ip));
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        const retryAfter = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        const error = new OAuthError('too_many_requests', `At most ${REGISTRATIONS_PER_WINDOW} registrations an hour from one address; retry in ${retryAfter} s`, 429);
        return reply.status(429).headers({ 'retry-after': retryAfter, 'cache-control': 'no-store' }).send(error.body());
      }
    });
    scope.post(REGISTER_PATH, { schema: { hide: true } }, async (request, reply) => {
      const registered = await registerClient(ctx.db, request.body);
      return reply.status(201).header('cache-control', 'no-store').send(registered);
    });
  });
}

/** What the limit counts: an IPv4 address as it is, an IPv6 address by its /64 network. */
export function registrantOf(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head, tail = ''] = ip.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const missing = 8 - groups(head!).length - groups(tail).length;
  const full = ip.includes('::') ? [...groups(head!), ...Array(missing).fill('0'), ...groups(tail)] : groups(ip);
  return `${full.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
