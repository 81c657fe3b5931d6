// What Threads does beyond publishing (../capabilities.ts), each against graph.threads.net (or the
// emulator at CRIER_THREADS_BASE_URL): deleting, listing the profile's posts, reading and answering
// replies, insights, and the `replies` webhook. See README.md for the calls and limits.
import type { NetworkCapabilities } from '../capabilities.ts';
import { accountAnalytics, postAnalytics } from './analytics.ts';
import { listComments } from './comments.ts';
import { threadsInbound } from './inbound.ts';
import { ownPosts } from './own-posts.ts';
import { removePost } from './remove.ts';
import { REPLY_TIMING, replyTo, type ReplyTiming } from './reply.ts';

export function threadsCapabilities(apiUrl: string, timing: ReplyTiming = REPLY_TIMING): NetworkCapabilities {
  return {
    remove: (session, post) => removePost(apiUrl, session, post),
    ownPosts: (session, options) => ownPosts(apiUrl, session, options),
    comments: {
      list: (session, post, options) => listComments(apiUrl, session, post, options),
      reply: (session, post, text, parentCommentId) => replyTo(apiUrl, timing, session, post, text, parentCommentId),
    },
    analytics: {
      post: (session, post) => postAnalytics(apiUrl, session, post),
      account: (session, period) => accountAnalytics(apiUrl, session, period),
    },
    inbound: threadsInbound,
  };
}
