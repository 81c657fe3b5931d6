// /inbound/:network — where a network sends its webhooks (outside /v1, no API key: the network signs
// its deliveries with the app secret). GET answers the subscription handshake with a verify token
// Crier issued; POST checks the signature and stores the delivery before answering 200
// (src/inbound/README.md).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestError } from '../../core/errors.ts';
import { receiveDelivery } from '../../inbound/receive.ts';
import { isIssuedVerifyToken } from '../../inbound/verify-tokens.ts';
import type { InboundRequest, NetworkCapabilities } from '../../networks/capabilities.ts';
import { isNetworkId } from '../../networks/ids.ts';
import type { NetworkId } from '../../core/network-id.ts';
import type { AppContext } from '../context.ts';

const Params = Type.Object({ network: Type.String({ maxLength: 32 }) });

export async function inboundRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const inboundOf = (raw: string): { network: NetworkId; inbound: NonNullable<NetworkCapabilities['inbound']> } => {
    const inbound = isNetworkId(raw) ? ctx.networks.capabilities(raw).inbound : undefined;
    if (!inbound) throw new RequestError(404, `No inbound webhooks are received for "${raw}"`, { code: 'not_found' });
    return { network: raw as NetworkId, inbound };
  };

  await app.register(async (scope) => {
    // Signatures are over the body exactly as sent: the bytes are kept, whatever the content type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    scope.get<{ Params: { network: string } }>('/inbound/:network', {
      schema: { summary: 'Webhook subscription handshake (called by the network)', operationId: 'inboundHandshake', params: Params, hide: true },
      handler: async (request, reply) => {
        const { network, inbound } = inboundOf(request.params.network);
        const incoming = inboundRequest(request);
        const token = incoming.query['hub.verify_token'] ?? '';
        const issued = await isIssuedVerifyToken(ctx.db, ctx.config.managedApps, network, token);
        const answer = inbound.handshake(incoming, (given) => issued && given === token);
        if (!answer) throw new RequestError(400, 'Not a subscription handshake', { code: 'not_a_handshake' });
        if (answer.status !== 200) request.log.warn({ network }, 'inbound handshake refused: unknown verify token');
        return reply.status(answer.status).type('text/plain').send(answer.body);
      },
    });

    scope.post<{ Params: { network: string }; Body: Buffer | undefined }>('/inbound/:network', {
      schema: { summary: 'Webhook delivery (called by the network)', operationId: 'inboundDelivery', params: Params, hide: true },
      handler: async (request, reply) => {
        const { network, inbound } = inboundOf(request.params.network);
        const outcome = await receiveDelivery(ctx.db, ctx.box, ctx.config.managedApps, network, inbound, inboundRequest(request));
        if (outcome.kind === 'bad_signature') {
          request.log.warn({ network, recipients: outcome.recipients }, 'inbound delivery refused: unsigned or wrongly signed');
          throw new RequestError(403, 'The delivery is unsigned or its signature does not match the app secret', { code: 'invalid_signature' });
        }
        if (outcome.kind === 'ignored') request.log.info({ network, recipients: outcome.recipients }, 'inbound delivery for no connected account: ignored');
        else request.log.info({ network, deliveryId: outcome.deliveryId }, 'inbound delivery stored');
        return reply.status(200).send({ success: true });
      },
    });
  });
}

function inboundRequest(request: FastifyRequest): InboundRequest {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));
  const query = Object.fromEntries(Object.entries((request.query ?? {}) as Record<string, unknown>).map(([name, value]) => [name, Array.isArray(value) ? String(value[0]) : String(value)]));
  return { method: request.method, headers, query, rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0) };
}
