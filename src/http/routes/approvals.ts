// POST /v1/posts/:id/approve and /reject: an approver's (or admin's) decision on a post waiting for
// approval (orgs/settings.ts requireApproval). Editors may not decide (orgs/roles.ts). A key may decide
// on a post it created: only admin keys both create and approve, and an admin may switch approval off.
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../core/errors.ts';
import { withTransaction } from '../../db/pool.ts';
import { decideApproval, type ApprovalDecision } from '../../posts/manage.ts';
import { getPost } from '../../posts/read.ts';
import { PostDetailSchema } from '../../posts/schema.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });
const Answer = Type.Object({ success: Type.Boolean(), post: PostDetailSchema });
const MAX_REASON = 1000;

export function approvalsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'approved', {
    summary: 'Approve a post waiting for approval',
    description: 'Approver or admin keys. The post is queued: due at its `scheduledAt`, or at once when that has passed or there is none. Sends `post.approved`. A post already approved, rejected or cancelled answers 409 `post_not_pending_approval`: of concurrent decisions exactly one takes effect.',
  });
  route(app, ctx, 'rejected', {
    summary: 'Reject a post waiting for approval',
    description: 'Approver or admin keys. Final: no destination publishes (each says `rejected`), and the post can no longer be rescheduled. Optional body `{"reason": "..."}` (up to 1000 characters), carried by the `post.rejected` event. A post already decided or cancelled answers 409 `post_not_pending_approval`.',
  });
}

function route(app: FastifyInstance, ctx: AppContext, decision: ApprovalDecision, doc: { summary: string; description: string }): void {
  const path = decision === 'approved' ? '/v1/posts/:id/approve' : '/v1/posts/:id/reject';
  app.post<{ Params: { id: string } }>(path, {
    schema: {
      ...doc,
      tags: ['posts'],
      params: IdParams,
      ...(decision === 'rejected' ? { body: Type.Object({ reason: Type.Optional(Type.String({ maxLength: MAX_REASON })) }) } : {}),
      response: { 200: Answer, 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    // The body is optional (an approval has none): checked here, where a missing body is not an error.
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (request) => {
      const reason = decision === 'rejected' ? parseReason(request.body) : null;
      const { orgId, keyId } = request.owner;
      // The post as the decision left it, read in its transaction: a cancel or delete right after cannot hide it.
      const { dueAt, post } = await withTransaction(ctx.db, async (tx) => {
        const result = await decideApproval(tx, orgId, request.params.id, decision, keyId, reason);
        return { ...result, post: (await getPost(tx, orgId, request.params.id))! };
      });
      if (dueAt !== undefined) ctx.waker.wake(dueAt);
      return { success: true, post };
    },
  });
}

/** The rejection's reason: absent, null or a string of at most MAX_REASON characters (trimmed; empty is none). */
function parseReason(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'object' || Array.isArray(body)) throw validationError([{ field: '(body)', message: 'must be a JSON object' }]);
  const unknown = Object.keys(body).filter((key) => key !== 'reason');
  if (unknown.length) throw validationError(unknown.map((field) => ({ field, message: 'is not a field of a rejection; allowed: reason' })));
  const { reason } = body as { reason?: unknown };
  if (reason === undefined || reason === null) return null;
  if (typeof reason !== 'string') throw validationError([{ field: 'reason', message: 'must be a string' }]);
  if (reason.length > MAX_REASON) throw validationError([{ field: 'reason', message: `must be at most ${MAX_REASON} characters` }]);
  return reason.trim() || null;
}
