// POST /v1/sandbox/social-accounts/:id/messages, in sandbox mode only: someone sends a sandbox
// account a direct message on its emulator, which pushes it to Crier as the network would, so a
// newcomer can try /v1/conversations and the message events with no network account.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { orgAccount } from '../../accounts/session.ts';
import { RequestError, validationError } from '../../core/errors.ts';
import { decodeId } from '../../core/ids.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';
import { SANDBOX_HANDLE } from './sandbox-comments.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const Body = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 1_000 }),
  from: Type.String({ pattern: SANDBOX_HANDLE, default: 'sandbox_fan', description: 'The sender (made up; created on the emulator)' }),
});

export function sandboxMessagesRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sandbox = ctx.sandbox;
  if (!sandbox) return;

  const messaging = ctx.networks.all.filter((n) => ctx.networks.capabilities(n.id).messages).map((n) => n.label).join(', ') || 'none';

  app.post<{ Params: { id: string }; Body: { text: string; from: string } }>('/v1/sandbox/social-accounts/:id/messages', {
    schema: {
      summary: 'Sandbox: someone sends an account a direct message',
      description: `The account's emulator (sandbox mode only; networks with direct messages: ${messaging}) receives a message from \`from\` and sends Crier its webhook, as the network does: it shows in GET /v1/conversations (a \`message.received\` event, with \`conversation.started\` for a new sender) within a moment.`,
      tags: ['sandbox'],
      params: IdParams,
      body: Body,
      response: { 201: Type.Object({ success: Type.Boolean(), network: Type.String(), message_id: Type.String() }), 400: ErrorSchema, 404: ErrorSchema },
    },
    handler: async (request, reply) => {
      if (!request.body.text.trim()) throw validationError([{ field: 'text', message: 'must not be blank' }]);
      const accountId = requireId(request.params.id, decodeId, 'Social account not found');
      const { credentials } = await orgAccount(ctx, request.owner.orgId, accountId);
      const label = ctx.networks.get(credentials.network).label;
      const sent = sandbox.addMessage({ network: credentials.network, networkUniqueId: credentials.networkUniqueId, username: credentials.username, text: request.body.text, from: request.body.from });
      if (!sent) throw new RequestError(400, `${label} accounts receive no direct messages in the sandbox`, { code: 'messages_not_supported' });
      const { messageId } = await sent.catch((error: unknown) => {
        throw new RequestError(400, `The sandbox's ${label} emulator refused the message: ${(error as Error).message}`, { code: 'message_refused' });
      });
      return reply.code(201).send({ success: true, network: credentials.network, message_id: messageId });
    },
  });
}
