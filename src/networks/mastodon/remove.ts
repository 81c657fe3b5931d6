// Deleting a published post: DELETE /api/v1/statuses/:id (https://docs.joinmastodon.org/methods/statuses/#delete)
// for each status Crier made, the replies first. A status already gone answers 404 Record not found.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { MastodonClient } from './client.ts';
import { instanceFetch } from './instance.ts';

export async function removePost(trusted: string | undefined, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const { credential, serviceUrl } = session.account;
  if (!credential || !serviceUrl) throw new PublishError('auth', 'mastodon: no instance or access token is stored for the account; connect it again');
  const client = new MastodonClient(serviceUrl, credential, instanceFetch(serviceUrl, trusted, session.userFetch));
  const parts = post.parts.length ? post.parts : [post.root];
  let removed = false;
  for (const part of [...parts].reverse()) {
    const answer = await client.answer({ path: `/api/v1/statuses/${encodeURIComponent(part.platformId)}`, method: 'DELETE' });
    if (answer.status === 404) continue;
    if (answer.status < 200 || answer.status >= 300) throw client.failureOf(answer);
    removed = true;
  }
  return removed ? 'removed' : 'absent';
}
