// Deleting a published post from LinkedIn: DELETE /rest/posts/{encoded URN} (204), which takes the
// post's comments with it — Crier's later containers are comments on the root, so one call removes
// everything. 404: LinkedIn no longer has it.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { clientOf } from './session.ts';
import { encodeUrn, postUrn } from './urn.ts';

export async function removeLinkedInPost(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const urn = postUrn(post.root.platformId);
  try {
    // The docs' samples send the Rest.li method as a header too.
    await clientOf(apiUrl, session).request({ url: `/rest/posts/${encodeUrn(urn)}`, method: 'DELETE', headers: { 'x-restli-method': 'DELETE' } });
    return 'removed';
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return 'absent';
    throw error;
  }
}
