// What Crier does on LinkedIn beyond publishing (../capabilities.ts): deleting a post, listing the
// account's posts, comments and answers, and the figures LinkedIn reports.
import type { NetworkCapabilities } from '../capabilities.ts';
import { linkedInAccountMetrics, linkedInPostMetrics } from './analytics.ts';
import { listLinkedInComments, replyOnLinkedIn } from './comments.ts';
import { listOwnLinkedInPosts } from './own-posts.ts';
import { removeLinkedInPost } from './remove.ts';

export function linkedinCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    remove: (session, post) => removeLinkedInPost(apiUrl, session, post),
    ownPosts: (session, options) => listOwnLinkedInPosts(apiUrl, session, options),
    comments: {
      list: (session, post, options) => listLinkedInComments(apiUrl, session, post, options),
      reply: (session, post, text, parentCommentId) => replyOnLinkedIn(apiUrl, session, post, text, parentCommentId),
    },
    analytics: {
      post: (session, post) => linkedInPostMetrics(apiUrl, session, post),
      account: (session, period) => linkedInAccountMetrics(apiUrl, session, period),
    },
  };
}
