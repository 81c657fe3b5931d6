// `crier approve <post id>` and `crier reject <post id> [--reason <text>]`: an approver's decision on
// a post waiting for approval (POST /v1/posts/:id/approve and /reject). `crier posts --status
// pending_approval` lists the posts waiting.
import { request, usageFailure, type Connection } from './api.ts';
import { print, printJson, when } from './output.ts';
import { CRIER_COMMAND, EXIT } from './usage.ts';

export type Decision = 'approve' | 'reject';

export async function decisionCommand(conn: Connection, decision: Decision, positionals: string[], flags: { reason?: string; json: boolean }): Promise<number> {
  if (positionals.length !== 1) {
    throw usageFailure(`${decision} needs one post id: ${CRIER_COMMAND} ${decision} <post id>${decision === 'reject' ? ' [--reason <text>]' : ''}`);
  }
  if (decision === 'approve' && flags.reason !== undefined) throw usageFailure('--reason goes with reject: an approval has none');
  const id = positionals[0]!;
  const body = flags.reason === undefined ? undefined : { reason: flags.reason };
  const answer = await request(conn, `/v1/posts/${encodeURIComponent(id)}/${decision}`, { method: 'POST', ...(body ? { body } : {}) });
  if (flags.json) printJson(answer.body);
  else print(sayDecided(answer.body.post));
  return EXIT.ok;
}

function sayDecided(post: { id: string; scheduledAt: string | null; approval: { status: string; reason: string | null } }): string {
  if (post.approval.status === 'rejected') return `post ${post.id} rejected${post.approval.reason ? ` ("${post.approval.reason}")` : ''}: it will not be published`;
  const future = post.scheduledAt !== null && Date.parse(post.scheduledAt) > Date.now();
  return `post ${post.id} approved: ${future ? `scheduled ${when(post.scheduledAt!)}` : 'queued to publish now'}; follow it: ${CRIER_COMMAND} status ${post.id} --watch`;
}
