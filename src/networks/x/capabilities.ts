// What Crier does on X beyond publishing (../capabilities.ts): removing a post, listing the account's
// posts, reading and answering replies, and figures. Each call uses the account's token as it is.
import type { NetworkCapabilities } from '../capabilities.ts';
import { accountMetrics, postMetrics } from './analytics.ts';
import { listComments, replyToPost } from './comments.ts';
import { listOwnPosts } from './own-posts.ts';
import { removePost } from './remove.ts';

export function xCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    remove: (session, post) => removePost(apiUrl, session, post),
    ownPosts: (session, options) => listOwnPosts(apiUrl, session, options),
    comments: {
      list: (session, post, options) => listComments(apiUrl, session, post, options),
      reply: (session, post, text, parentCommentId) => replyToPost(apiUrl, session, post, text, parentCommentId),
    },
    analytics: {
      post: (session, post) => postMetrics(apiUrl, session, post),
      account: (session) => accountMetrics(apiUrl, session),
    },
  };
}
