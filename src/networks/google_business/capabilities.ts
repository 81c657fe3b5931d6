// What Crier does on Google Business Profile beyond publishing (../capabilities.ts): deleting a local
// post, the location's own posts, and the location's figures (Performance API). No comments (reviews
// are the location's) and no per-post figures (README.md). Each part loads its module on first use.
import type { NetworkCapabilities } from '../capabilities.ts';

export function googleBusinessCapabilities(postsApi: string, performanceApi: string): NetworkCapabilities {
  return {
    remove: async (session, post) => (await import('./posts.ts')).removeLocalPost(postsApi, session, post),
    ownPosts: async (session, options) => (await import('./posts.ts')).ownLocalPosts(postsApi, session, options),
    analytics: { account: async (session, period) => (await import('./performance.ts')).locationMetrics(performanceApi, session, period) },
  };
}
