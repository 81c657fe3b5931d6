// The create path as the background runners take it (recurrences, evergreen collections): one post,
// written inside the runner's own transaction (so the post exists exactly when the runner's record of
// it does), judged as POST /v1/posts would judge it now: the subscription gate (only an active
// subscription creates posts), the approval settings (the organization's here, a tenant's with the
// accounts), validation, account resolution, queue slots and quotas.
import { decodeId } from '../core/ids.ts';
import type { RequestError } from '../core/errors.ts';
import type { Tx } from '../db/pool.ts';
import type { FetchPolicy } from '../validation/fetched-url.ts';
import { writeCreates } from './create.ts';
import { parseCreateBody } from './validate.ts';

export type RunnerCreated =
  | { ok: true; postId: number; scheduledAt: Date | null; dueAt: Date | null | undefined }
  /** `reason`: the refusal in one line, as the runner records it; `error`: the 400 the API would answer, when that is what refused. */
  | { ok: false; reason: string; error?: RequestError };

export async function createPostInTransaction(tx: Tx, orgId: number, body: Record<string, unknown>, now: Date, fetch: FetchPolicy): Promise<RunnerCreated> {
  const { rows: [org] } = await tx.query<{ require_approval: boolean; subscription_status: string }>(
    'SELECT require_approval, subscription_status FROM orgs WHERE id = $1', [orgId],
  );
  if (org!.subscription_status !== 'active') {
    return { ok: false, reason: `The organization's subscription is ${org!.subscription_status}; no post is created until it is active again` };
  }
  const session = { client: tx, begin: async () => {}, open: true }; // the transaction is open already
  const [result] = await writeCreates(session, [{ orgId, key: undefined, body, parsed: parseCreateBody(body, now, fetch), now, requireApproval: org!.require_approval }]);
  if (!result!.ok) {
    const error = result!.error as RequestError;
    return { ok: false, reason: refusalText(error), error };
  }
  const post = (result!.value.body as { post: { id: string; scheduledAt: string | null } }).post;
  const postId = decodeId(post.id);
  if (postId === undefined) throw new Error(`the create path answered an undecodable post id ${post.id}`);
  return { ok: true, postId, scheduledAt: post.scheduledAt === null ? null : new Date(post.scheduledAt), dueAt: result!.value.dueAt };
}

/** A 400 in one line: its message, then each field's. */
function refusalText({ message, details }: RequestError): string {
  return details?.length ? `${message}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}` : String(message);
}
