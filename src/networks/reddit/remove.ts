// Deleting a published post from Reddit: the comments Crier added to it (later containers) and then
// the submission, each with POST /api/del (scope edit). Reddit answers {} even when it deleted
// nothing (only the author can delete), so /api/info is read before (what is still there) and after
// (the submission shows author "[deleted]").
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { RawThing } from './client.ts';
import { clientOf, fullname } from './session.ts';

/** /api/info reads at most 100 fullnames; Crier's later containers beyond that are left to the submission's fate. */
const INFO_MAX = 100;

const isGone = (thing: RawThing | undefined) => !thing || thing.data.author === '[deleted]' || thing.data.removed_by_category === 'deleted';

export async function removeRedditPost(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const client = clientOf(apiUrl, session);
  const root = fullname('t3', post.root.platformId);
  const comments = post.parts.slice(1).map((part) => fullname('t1', part.platformId));
  const before = await client.info([root, ...comments].slice(0, INFO_MAX));
  const byName = new Map(before.map((thing) => [String(thing.data.name), thing]));
  // Answers first, newest first: each is a thing of its own that outlives the submission on Reddit.
  for (const name of comments.reverse()) {
    if (!isGone(byName.get(name))) await client.del(name);
  }
  if (isGone(byName.get(root))) return 'absent';
  await client.del(root);
  const [after] = await client.info([root]);
  if (!isGone(after)) {
    throw new PublishError('permanent', `reddit: ${root} is still on Reddit after /api/del (only its author, u/${String(after!.data.author)}, can delete it)`, undefined, 'forbidden');
  }
  return 'removed';
}
