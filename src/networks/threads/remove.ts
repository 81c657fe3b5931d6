// Deleting a published post (delete-posts doc): DELETE /{threads-media-id} for every container Crier
// published — the later ones first, since deleting a root leaves its replies in place — with the
// 100-deletes-per-24 h limit checked first, so that a post is never left half deleted by it.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { ThreadsClient } from './client.ts';
import { clientFor } from './session.ts';

/** Threads does not say when a delete frees up in its moving window: try again in an hour. */
const DELETE_LIMIT_WAIT_MS = 3600_000;

export async function removePost(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const client = clientFor(apiUrl, session);
  const parts = post.parts.length ? post.parts : [post.root];
  await checkDeleteLimit(client, parts.length);
  let rootGone = false;
  for (const part of [...parts].reverse()) {
    const gone = await deleteOne(client, part.platformId);
    if (part.platformId === post.root.platformId) rootGone = gone;
  }
  return rootGone ? 'absent' : 'removed';
}

/** Refuses (retryable) when the moving window has fewer deletes left than the post needs. */
async function checkDeleteLimit(client: ThreadsClient, needed: number): Promise<void> {
  let limit;
  try {
    limit = await client.deleteLimit();
  } catch (error) {
    // Advisory, as publishing's check: DELETE enforces the limit itself; only a dead token or throttling stops here.
    if (error instanceof PublishError && error.kind !== 'permanent') throw error;
    return;
  }
  if (limit.total > 0 && limit.used + needed > limit.total) {
    throw new PublishError('retryable', `threads: the profile has made ${limit.used} of the ${limit.total} deletions Threads allows per ${Math.round(limit.durationSecs / 3600)} h `
      + `(a moving window) and this post needs ${needed}; try again later`, DELETE_LIMIT_WAIT_MS, 'quota');
  }
}

/** Deletes one post; true when Threads no longer had it. */
async function deleteOne(client: ThreadsClient, mediaId: string): Promise<boolean> {
  try {
    await client.deleteMedia(mediaId);
    return false;
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return true;
    throw error;
  }
}
