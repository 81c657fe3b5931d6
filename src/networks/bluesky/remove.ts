// Deleting a published post: com.atproto.repo.deleteRecord for every container's record key, last
// first (1 write point each). Deleting a root alone would leave its replies under a placeholder.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { parsePostUri, POST } from './views.ts';
import { withAgent } from './with-agent.ts';

export async function removePost(service: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const keys = post.parts.map((p) => parsePostUri(p.platformId, 'post'));
  return withAgent(service, session, 'deleting the post', async (agent, did) => {
    const foreign = keys.find((k) => k.did !== did);
    if (foreign) throw new PublishError('permanent', `bluesky: the post is in ${foreign.did}'s repository, not the account's`, undefined, 'forbidden');
    let removed = false;
    // Last container first: the thread's replies go before the post they answer.
    for (const { rkey } of [...keys].reverse()) {
      const res = await agent.com.atproto.repo.deleteRecord({ repo: did, collection: POST, rkey });
      // The PDS answers without a commit when there was no such record.
      if (res.data.commit) removed = true;
    }
    return removed ? 'removed' : 'absent';
  });
}
