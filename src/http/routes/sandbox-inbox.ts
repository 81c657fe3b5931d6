// The sandbox's webhook inbox (src/sandbox/inbox.ts), in sandbox mode only: the receiver Crier's
// deliverer POSTs to (no API key: a delivery carries none, and the inbox takes only deliveries Crier
// has in flight), and the list an organization reads its own received deliveries from.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { RequestError } from '../../core/errors.ts';
import { INBOX_KEEP, INBOX_PATH, listInbox, receiveAtInbox, sandboxInboxUrl } from '../../sandbox/inbox.ts';
import type { AppContext } from '../context.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const EntrySchema = Type.Object({
  id: Type.Integer(),
  receivedAt: Type.String({ format: 'date-time' }),
  webhookId: Type.Integer(),
  eventId: Type.String({ description: 'the event id (`webhook-id` header)' }),
  event: Type.Union([Type.String(), Type.Null()]),
  headers: Type.Record(Type.String(), Type.Unknown(), { description: 'the request headers as received, names in lower case' }),
  body: Type.Unknown({ description: 'the body as received (parsed JSON)' }),
  signature: Type.Object({
    verified: Type.Union([Type.Boolean(), Type.Null()], { description: "both signatures match the webhook's secret; null when it has none (unsigned)" }),
    detail: Type.String(),
  }),
});

export async function sandboxInboxRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const inboxUrl = sandboxInboxUrl(ctx.config);
  if (!inboxUrl) return;

  app.get<{ Querystring: { limit: number } }>('/v1/sandbox/webhook-inbox', {
    schema: {
      summary: 'Sandbox: the webhook deliveries the built-in inbox received',
      description: `Register \`${inboxUrl}\` as a webhook URL (sandbox mode only); every delivery to it is listed here, newest first, for the organization it was sent for (the newest ${INBOX_KEEP} are kept).`,
      tags: ['sandbox'],
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: INBOX_KEEP, default: 20 }) }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(EntrySchema) }) },
    },
    handler: async (request) => ({ success: true, data: await listInbox(ctx.db, request.owner.orgId, request.query.limit) }),
  });

  await app.register(async (receiver) => {
    // Signatures are over the body exactly as sent: the receiver takes the raw bytes, whatever the type.
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    receiver.post<{ Body: Buffer | undefined }>(INBOX_PATH, {
      config: { apiKey: false },
      schema: {
        summary: "Sandbox: the built-in webhook receiver (Crier's deliverer posts here)",
        tags: ['sandbox'],
        response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema },
      },
      handler: async (request) => {
        const received = { headers: request.headers, body: request.body ?? Buffer.alloc(0) };
        if (!(await receiveAtInbox(ctx.db, ctx.box, inboxUrl, received))) {
          throw new RequestError(404, 'No delivery of this event is on its way to the inbox: it takes only what Crier sends it', { code: 'not_found' });
        }
        return { success: true };
      },
    });
  });
}
