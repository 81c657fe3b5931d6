// What Crier does on Reddit beyond publishing (../capabilities.ts): the flair listing, deleting a
// post, listing the account's submissions, comments and answers, and the figures Reddit shows.
import type { NetworkCapabilities } from '../capabilities.ts';
import { redditAccountMetrics, redditPostMetrics } from './analytics.ts';
import { listRedditComments, replyOnReddit } from './comments.ts';
import { redditListings } from './listings.ts';
import { listOwnRedditPosts } from './own-posts.ts';
import { removeRedditPost } from './remove.ts';

export function redditCapabilities(apiUrl: string): NetworkCapabilities {
  return {
    listings: redditListings(apiUrl),
    remove: (session, post) => removeRedditPost(apiUrl, session, post),
    ownPosts: (session, options) => listOwnRedditPosts(apiUrl, session, options),
    comments: {
      list: (session, post, options) => listRedditComments(apiUrl, session, post, options),
      reply: (session, post, text, parentCommentId) => replyOnReddit(apiUrl, session, post, text, parentCommentId),
    },
    analytics: {
      post: (session, post) => redditPostMetrics(apiUrl, session, post),
      account: (session) => redditAccountMetrics(apiUrl, session),
    },
  };
}
