// Bluesky engagement, loaded with @atproto/api on first use (capabilities.ts): every call goes to the
// account's PDS (which proxies app.bsky.* reads to the AppView) with the account's session.
export { removePost } from './remove.ts';
export { listOwnPosts } from './own-posts.ts';
export { legacyReplies, listComments, replyToPost } from './comments.ts';
export { accountMetrics, postMetrics } from './analytics.ts';
