// Deleting a published post from X: DELETE /2/tweets/{id} for every container (a thread's replies
// are posts of their own: deleting the root leaves them), last first so a half-done removal never
// leaves replies under a missing root for longer than needed.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { checkPostId, clientFor, notFoundIn } from './session.ts';

export async function removePost(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const client = clientFor(apiUrl, session);
  const ids = post.parts.map((p) => p.platformId);
  for (const id of ids) checkPostId(id, 'post');
  let removed = false;
  for (const id of [...ids].reverse()) {
    if (await deleteOne(client, id)) removed = true;
  }
  return removed ? 'removed' : 'absent';
}

/** True when X deleted it; false when it was already gone (`deleted: false`, or a not-found answer). */
async function deleteOne(client: ReturnType<typeof clientFor>, id: string): Promise<boolean> {
  try {
    const body = (await client.request('DELETE', `/2/tweets/${id}`)) as { data?: { deleted?: boolean } };
    if (notFoundIn(body)) return false;
    return body.data?.deleted === true;
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return false;
    throw error;
  }
}
