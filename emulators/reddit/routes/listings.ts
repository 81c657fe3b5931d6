// Listings on oauth.reddit.com (scope read): GET /comments/{article}, the submission and its comment
// tree (threads.ts): `limit` comments in all (default 200, max 500), `depth` levels (default 10),
// `sort` as documented; what does not fit stands in `more` stubs.
import { statusError } from '../errors.ts';
import { linkWithComments, listing } from '../things.ts';
import { DEFAULT_DEPTH, renderLevel } from '../threads.ts';
import type { Routing } from './common.ts';

const MAX_COMMENTS = 500;

export function registerListingRoutes({ route, api, state }: Routing): void {
  route('GET', '/comments/:id', true, api('read', (req) => {
    const { id } = req.params as { id: string };
    const submission = state.submission(id.replace(/^t3_/, ''));
    if (!submission) return statusError(404);
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(MAX_COMMENTS, Math.max(1, Number(q.limit) || 200));
    const depth = Math.max(1, Number(q.depth) || DEFAULT_DEPTH);
    const tree = renderLevel(state, submission.name, 0, { sort: q.sort, depth }, { left: limit });
    return { status: 200, body: [listing([linkWithComments(state, submission)]), listing(tree)] };
  }));
}
