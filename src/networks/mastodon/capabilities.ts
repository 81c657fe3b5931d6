// What Crier does on Mastodon beyond publishing (../capabilities.ts), each on the account's instance
// (the operator's configured one directly, any other through the SSRF guard: account-client.ts):
// deleting a post, changing its text, the account's statuses for imports, reading and answering
// comments, counts. See README.md "Beyond publishing".
import type { NetworkCapabilities } from '../capabilities.ts';
import { accountMetrics, postMetrics } from './analytics.ts';
import { listComments, replyToPost } from './comments.ts';
import { editPost } from './edit.ts';
import { listOwnPosts } from './own-posts.ts';
import { removePost } from './remove.ts';

export function mastodonCapabilities(trusted: string | undefined): NetworkCapabilities {
  return {
    remove: (session, post) => removePost(trusted, session, post),
    edit: (session, post, texts) => editPost(trusted, session, post, texts),
    ownPosts: (session, options) => listOwnPosts(trusted, session, options),
    comments: {
      list: (session, post, options) => listComments(trusted, session, post, options),
      reply: (session, post, text, parentCommentId) => replyToPost(trusted, session, post, text, parentCommentId),
    },
    analytics: {
      post: (session, post) => postMetrics(trusted, session, post),
      account: (session) => accountMetrics(trusted, session),
    },
  };
}
