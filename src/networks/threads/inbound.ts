// Threads webhooks (webhooks doc), signed with the Threads app's secret (X-Hub-Signature-256) and
// subscribed with Meta's handshake (../meta/webhooks.ts). Only the `replies` field becomes items: a
// reply on a post of the install user, `{app_id, topic, target_id, time, …, values:{value:{id,
// username, text, media_type, permalink, replied_to:{id}, root_post:{id, owner_id, username},
// shortcode, timestamp}, field:"replies"}}`. The account it concerns is the root post's owner
// (`root_post.owner_id`, its Threads user id); `target_id` is the media's id, not the user's. The doc
// shows `values` as one object; a list of them is read too. `mentions`, `publish` and `delete` are
// not comments and give nothing.
import type { InboundItem, InboundRequest, NetworkCapabilities } from '../capabilities.ts';
import { metaHandshake, metaSignatureValid } from '../meta/webhooks.ts';

interface RepliesValue {
  id?: unknown;
  username?: unknown;
  text?: unknown;
  replied_to?: { id?: unknown };
  root_post?: { id?: unknown; owner_id?: unknown; username?: unknown };
}

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The `replies` values of a delivery (none when it is not JSON or carries other fields). */
function repliesValues(request: InboundRequest): RepliesValue[] {
  let body: { values?: unknown };
  try {
    body = JSON.parse(request.rawBody.toString('utf8')) as { values?: unknown };
  } catch {
    return [];
  }
  const values = Array.isArray(body?.values) ? body.values : body?.values ? [body.values] : [];
  return values
    .filter((entry): entry is { field: string; value: RepliesValue } => typeof entry === 'object' && entry !== null && (entry as { field?: unknown }).field === 'replies')
    .map((entry) => entry.value)
    .filter((value) => typeof value === 'object' && value !== null);
}

function itemOf(value: RepliesValue): InboundItem | undefined {
  const commentId = str(value.id);
  const rootId = str(value.root_post?.id);
  const owner = str(value.root_post?.owner_id);
  const username = str(value.username);
  if (!commentId || !rootId || !owner || !username) return undefined;
  const parent = str(value.replied_to?.id);
  return {
    kind: 'comment',
    accountNetworkId: owner,
    platformPostId: rootId,
    commentId,
    parentCommentId: parent && parent !== rootId ? parent : null,
    authorId: null,
    authorUsername: username,
    text: str(value.text),
    // The root's owner is the connected account: a reply under its name is its own (from the app or Crier's API reply).
    byAccount: username === str(value.root_post?.username),
  };
}

export const threadsInbound: NonNullable<NetworkCapabilities['inbound']> = {
  handshake: metaHandshake,
  recipients: (request) => [...new Set(repliesValues(request).map((value) => str(value.root_post?.owner_id)).filter(Boolean))],
  verify: metaSignatureValid,
  parse: (request) => repliesValues(request).map(itemOf).filter((item): item is InboundItem => item !== undefined),
};
