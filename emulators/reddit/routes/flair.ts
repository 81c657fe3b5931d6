// Flair on oauth.reddit.com (scope flair): GET /r/{subreddit}/api/link_flair_v2, the link flairs a
// user may pick. Reddit answers 403 when users cannot assign their own flair there, and 404 for a
// subreddit that does not exist.
import { statusError } from '../errors.ts';
import type { Routing } from './common.ts';

export function registerFlairRoutes({ route, api, state }: Routing): void {
  route('GET', '/r/:sr/api/link_flair_v2', true, api('flair', (req) => {
    const sr = state.subreddits.get((req.params as { sr: string }).sr.toLowerCase());
    if (!sr) return statusError(404);
    if (!sr.flairSelectable) return statusError(403);
    return { status: 200, body: sr.flairs.map((f) => ({ ...f })) };
  }));
}
