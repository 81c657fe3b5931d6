// /v1/conversations: direct-message conversations of accounts connected with the messaging scope
// (src/conversations/), their messages, sending, and starting one from a comment (comment-to-DM).
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import type { SendDeps } from '../../conversations/send.ts';
import { MAX_QUICK_REPLIES, MAX_TEXT_BYTES, MAX_TITLE_CHARS } from '../../conversations/validate.ts';
import { RequestError } from '../../core/errors.ts';
import { decodeId } from '../../core/ids.ts';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { IdParams, requireId } from '../params.ts';

// Loaded on first use: a Crier whose accounts never message does not carry them (README, footprint).
const store = () => import('../../conversations/store.ts');
const send = () => import('../../conversations/send.ts');

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const ConversationSchema = Type.Object({
  id: Type.String(),
  socialAccountId: Type.String(),
  network: Type.String(),
  participantId: Type.String({ description: "the contact's id on the network (the senderId of message.received)" }),
  lastInboundAt: Nullable(Type.String({ format: 'date-time', description: "the contact's last message: the 24-hour window to answer runs from it" })),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const QuickReply = Type.Object({ id: Type.String({ description: 'your id for the button, sent back as interaction.id when tapped' }), title: Type.String() });

const MessageSchema = Type.Object({
  id: Type.String(),
  conversationId: Type.String(),
  direction: Type.String({ enum: ['in', 'out'] }),
  status: Type.String({ enum: ['received', 'sending', 'sent', 'failed'] }),
  text: Type.String(),
  quickReplies: Type.Union([Type.Array(QuickReply), Type.Null()]),
  interaction: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
  commentId: Nullable(Type.String({ description: 'the comment a private reply answers' })),
  platformMessageId: Nullable(Type.String()),
  error: Nullable(Type.String({ description: "the network's reason, for a failed send" })),
  sentAt: Type.String({ format: 'date-time' }),
});

const Page = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }), offset: Type.Integer({ minimum: 0, default: 0 }) });
const Sent = Type.Object({ success: Type.Boolean(), data: Type.Object({ conversation: ConversationSchema, message: MessageSchema }) });
const Errors = { 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema, 502: ErrorSchema };

const MESSAGE_FIELDS = {
  text: Type.Optional(Type.Unknown({ description: `the message text, at most ${MAX_TEXT_BYTES} bytes` })),
  quickReplies: Type.Optional(Type.Unknown({ description: `up to ${MAX_QUICK_REPLIES} buttons {id, title}; titles at most ${MAX_TITLE_CHARS} characters, ids yours and distinct` })),
};

export function conversationsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: SendDeps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch: userFetchFor(ctx.config.allowLoopbackFetch) };
  const conversationId = (raw: string) => requireId(raw, decodeId, 'Conversation not found');

  app.get<{ Querystring: { social_account_id: string; limit: number; offset: number } }>('/v1/conversations', {
    schema: {
      summary: "List an account's direct-message conversations",
      description: 'Most recently active first. Conversations exist for accounts connected with the messaging scope (`scopes: ["messaging"]` on the auth URL): created by the contact\'s first message or by a comment-to-DM.',
      operationId: 'listConversations',
      tags: ['conversations'],
      querystring: Type.Object({ social_account_id: Type.String({ minLength: 1 }), ...Page.properties }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(ConversationSchema) }), 404: ErrorSchema },
    },
    handler: async (request) => {
      const accountId = requireId(request.query.social_account_id, decodeId, 'Social account not found');
      const owned = await ctx.db.query('SELECT 1 FROM social_accounts WHERE id = $1 AND org_id = $2', [accountId, request.owner.orgId]);
      if (!owned.rows.length) throw new RequestError(404, 'Social account not found', { code: 'not_found' });
      const { listConversations, conversationJson } = await store();
      const rows = await listConversations(ctx.db, request.owner.orgId, accountId, request.query);
      return { success: true, data: rows.map(conversationJson) };
    },
  });

  app.post<{ Body: Record<string, unknown> }>('/v1/conversations', {
    schema: {
      summary: 'Answer a comment with a direct message (comment-to-DM)',
      description: 'Body `{social_account_id, <network>: {comment_id, author_id}, text, quickReplies?}` with the `accountId`, `commentId` and `authorId` of a comment.received event. The network allows one private reply per comment, within 7 days of the comment: its refusal is a 422 with its reason (409 `private_reply_exists` when Crier already sent one). Starts (or continues) the conversation with the commenter; emits message.sent, with conversation.started for a new conversation, or message.failed.',
      operationId: 'startConversation',
      tags: ['conversations'],
      body: Type.Object({ social_account_id: Type.Optional(Type.Unknown()), ...MESSAGE_FIELDS }, { additionalProperties: true }),
      response: { 201: Sent, ...Errors },
    },
    handler: async (request, reply) => reply.status(201).send({ success: true, data: await (await send()).startFromComment(deps, request.owner.orgId, request.body ?? {}) }),
  });

  app.get<{ Params: { id: string }; Querystring: { limit: number; offset: number } }>('/v1/conversations/:id/messages', {
    schema: {
      summary: "A conversation's messages",
      description: 'Oldest first: what the contact sent (from the moment the account was connected with the messaging scope) and what was sent through the API, failed sends included. Messages written in the network\'s own app are relayed as message.sent events but not stored.',
      operationId: 'listMessages',
      tags: ['conversations'],
      params: IdParams,
      querystring: Page,
      response: { 200: Type.Object({ success: Type.Boolean(), data: Type.Array(MessageSchema) }), 404: ErrorSchema },
    },
    handler: async (request) => {
      const { findConversation, listMessages, messageJson } = await store();
      const conversation = await findConversation(ctx.db, request.owner.orgId, conversationId(request.params.id));
      if (!conversation) throw new RequestError(404, 'Conversation not found', { code: 'not_found' });
      return { success: true, data: (await listMessages(ctx.db, conversation.id, request.query)).map(messageJson) };
    },
  });

  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/v1/conversations/:id/messages', {
    schema: {
      summary: 'Send a direct message in a conversation',
      description: "Within 24 hours of the contact's last message (422 `messaging_window_closed` otherwise). Quick-reply buttons carry your `id`: a tap comes back as message.received with `interaction: {type: \"quick_reply\", id}`. The network's refusal: 422 `message_refused` with its reason (the message is stored as failed and message.failed is emitted).",
      operationId: 'sendMessage',
      tags: ['conversations'],
      params: IdParams,
      body: Type.Object(MESSAGE_FIELDS),
      response: { 201: Sent, ...Errors },
    },
    handler: async (request, reply) => {
      const data = await (await send()).sendToConversation(deps, request.owner.orgId, conversationId(request.params.id), request.body ?? {});
      return reply.status(201).send({ success: true, data });
    },
  });
}
