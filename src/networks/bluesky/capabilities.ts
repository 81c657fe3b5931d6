// What Crier does on Bluesky beyond publishing (../capabilities.ts): removing a post, listing the
// account's posts, reading and answering replies, counts. The work is in engagement.ts, loaded with
// the Bluesky client library on first use (like the adapter: see ../lazy-adapter.ts), so a process
// that never calls Bluesky never loads it.
import type { NetworkCapabilities } from '../capabilities.ts';
import { lazy } from '../../lazy.ts';

const engagement = lazy('@atproto/api (Bluesky replies, imports and counts)', () => import('./engagement.ts'));

export function blueskyCapabilities(service: string): NetworkCapabilities {
  return {
    remove: async (session, post) => (await engagement()).removePost(service, session, post),
    ownPosts: async (session, options) => (await engagement()).listOwnPosts(service, session, options),
    comments: {
      list: async (session, post, options) => (await engagement()).listComments(service, session, post, options),
      reply: async (session, post, text, parentCommentId) => (await engagement()).replyToPost(service, session, post, text, parentCommentId),
      legacy: async (session, post) => (await engagement()).legacyReplies(service, session, post),
    },
    analytics: {
      post: async (session, post) => (await engagement()).postMetrics(service, session, post),
      account: async (session) => (await engagement()).accountMetrics(service, session),
    },
  };
}
