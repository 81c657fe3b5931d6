// The account's posts for imports: app.bsky.feed.getAuthorFeed filter=posts_no_replies, 100 a page,
// newest first; reposts are listed as unsupported.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import { mediaCountOf, postUrl, recordOf, type PostViewLike } from './views.ts';
import { withAgent } from './with-agent.ts';

export async function listOwnPosts(service: string, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  return withAgent(service, session, 'listing the account\'s posts', async (agent, did) => {
    const res = await agent.app.bsky.feed.getAuthorFeed({ actor: did, filter: 'posts_no_replies', limit: 100, ...(options.cursor ? { cursor: options.cursor } : {}) });
    const items = res.data.feed.map((item): OwnPost => {
      const view = item.post as PostViewLike;
      const record = recordOf(view);
      const repost = item.reason?.$type === 'app.bsky.feed.defs#reasonRepost';
      return {
        platformId: view.uri,
        url: postUrl(view.author.handle, view.uri),
        text: record.text ?? '',
        createdAt: record.createdAt ?? null,
        mediaCount: mediaCountOf(record),
        ref: { uri: view.uri, cid: view.cid },
        ...(repost ? { unsupported: `a repost of ${view.author.handle}'s post, not a post of the account` } : {}),
      };
    });
    // Newest first: once a page reaches before `since`, the older pages are not wanted.
    const oldest = items.filter((i) => !i.unsupported).at(-1)?.createdAt;
    const done = options.since && oldest && Date.parse(oldest) < options.since.getTime();
    return { items, ...(res.data.cursor && !done ? { next: res.data.cursor } : {}) };
  });
}
