// What a connected Page can do beyond publishing (../capabilities.ts): delete a post, list its own
// posts, read and answer comments, and read figures, all with the Page token through Graph.
import type { NetworkCapabilities } from '../capabilities.ts';
import { pageAnalytics } from './analytics.ts';
import { pageComments } from './comments.ts';
import { pagePosts } from './own-posts.ts';

export function facebookCapabilities(apiUrl: string): NetworkCapabilities {
  const posts = pagePosts(apiUrl);
  return {
    remove: posts.remove,
    ownPosts: posts.ownPosts,
    comments: pageComments(apiUrl),
    analytics: pageAnalytics(apiUrl),
  };
}
