// Counts, the only figures Bluesky has: app.bsky.feed.getPosts for a post, app.bsky.actor.getProfile
// for the account (current totals). No views, reach or impressions exist.
import type { AccountMetrics, AccountSession, PostMetrics } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { parsePostUri, type PostViewLike } from './views.ts';
import { withAgent } from './with-agent.ts';

export async function postMetrics(service: string, session: AccountSession, post: PublishedPost): Promise<PostMetrics> {
  parsePostUri(post.root.platformId, 'post');
  return withAgent(service, session, 'reading the post\'s counts', async (agent) => {
    const [view] = (await agent.app.bsky.feed.getPosts({ uris: [post.root.platformId] })).data.posts as PostViewLike[];
    if (!view) throw new PublishError('permanent', 'bluesky: the post was not found (deleted?)', undefined, 'not_found');
    const count = (value: number | undefined) => (typeof value === 'number' ? value : null);
    const replies = count(view.replyCount);
    // The thread's own containers answer the root: they are not comments.
    const ownAnswers = post.parts.length - 1;
    const shares = typeof view.repostCount === 'number' || typeof view.quoteCount === 'number' ? (view.repostCount ?? 0) + (view.quoteCount ?? 0) : null;
    return {
      likes: count(view.likeCount),
      comments: replies === null ? null : Math.max(0, replies - ownAnswers),
      shares,
      views: null,
      reach: null,
      saves: count(view.bookmarkCount),
      impressions: null,
      platform_specific: { replyCount: replies, repostCount: count(view.repostCount), quoteCount: count(view.quoteCount), bookmarkCount: count(view.bookmarkCount) },
    };
  });
}

export async function accountMetrics(service: string, session: AccountSession): Promise<AccountMetrics> {
  return withAgent(service, session, 'reading the profile', async (agent, did) => {
    const profile = (await agent.app.bsky.actor.getProfile({ actor: did })).data;
    const count = (value: number | undefined) => (typeof value === 'number' ? value : null);
    return {
      followers: count(profile.followersCount),
      following: count(profile.followsCount),
      posts: count(profile.postsCount),
      engagement: null,
      ranged: false,
      platform_specific: {},
    };
  });
}
