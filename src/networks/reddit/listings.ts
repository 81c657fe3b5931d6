// GET /v1/social-accounts/:id/subreddits/:name/flairs: a subreddit's link flairs, so a client can
// choose the reddit block's `flairId` (and see whether `flairText` may change its text). Reddit lists
// them only where users may assign their own flair (403 otherwise: said as such).
import type { AccountListing } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { RedditClient } from './client.ts';

/** The subreddit names Reddit allows (3–21 letters, digits, _), or a profile's u_<username>. */
const SUBREDDIT = /^(?:[A-Za-z0-9][A-Za-z0-9_]{2,20}|u_[A-Za-z0-9_-]{3,20})$/;

export function redditListings(apiUrl: string): AccountListing[] {
  return [{
    path: 'subreddits/:name/flairs',
    summary: "A subreddit's link flairs (Reddit)",
    async list(session, { name }) {
      const subreddit = name!.replace(/^\/?r\//i, '');
      if (!SUBREDDIT.test(subreddit)) throw new PublishError('permanent', `reddit: "${name}" is not a subreddit name (3 to 21 letters, digits or _, without r/)`, undefined, 'invalid');
      const { account } = session;
      const client = new RedditClient(apiUrl, account.accessToken ?? '', account.username);
      try {
        return (await client.linkFlairs(subreddit)).map((flair) => ({ ...flair }));
      } catch (error) {
        if (error instanceof PublishError && error.code === 'forbidden') {
          throw new PublishError('permanent', `reddit: r/${subreddit} does not let users pick a link flair (or the account cannot see it)`, undefined, 'forbidden');
        }
        if (error instanceof PublishError && error.code === 'not_found') throw new PublishError('permanent', `reddit: r/${subreddit} does not exist`, undefined, 'not_found');
        throw error;
      }
    },
  }];
}
