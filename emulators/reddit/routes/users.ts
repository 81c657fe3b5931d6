// Users on oauth.reddit.com: GET /user/{username}/submitted (scope history, as reddit's
// /user/{username}/{where}), the user's submissions newest first, deleted ones left out, paged by
// the listing parameters `limit` (default 25, max 100), `after` and `before`.
import { statusError } from '../errors.ts';
import { linkWithComments, listing } from '../things.ts';
import type { Routing } from './common.ts';

const MAX_LIMIT = 100;

/**
 * The slice of a listing `after` or `before` anchors ("only one should be specified. these indicate
 * the fullname of an item in the listing to use as the anchor point of the slice", the API reference's
 * Listings): after: the `limit` items following the anchor; before: the `limit` items preceding it,
 * in listing order (reddit's paginated_listing turns `before` into a reversed `after`).
 */
function sliceOf(names: string[], q: Record<string, string | undefined>, limit: number): { start: number; end: number } {
  const anchor = q.before ? names.indexOf(q.before) : -1;
  // An anchor that names nothing is no anchor (reddit's VByName reads it as none): the first page.
  if (anchor >= 0) return { start: Math.max(0, anchor - limit), end: anchor };
  const start = q.after ? names.indexOf(q.after) + 1 : 0;
  return { start, end: start + limit };
}

export function registerUserRoutes({ route, api, state }: Routing): void {
  route('GET', '/user/:name/submitted', true, api('history', (req) => {
    const { name } = req.params as { name: string };
    if (!state.userNamed(name)) return statusError(404);
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number(q.limit) || 25));
    const mine = state.submissions.filter((s) => s.author.toLowerCase() === name.toLowerCase() && !s.deleted).reverse();
    const { start, end } = sliceOf(mine.map((s) => s.name), q, limit);
    const page = mine.slice(start, end);
    const after = end < mine.length && page.length ? page[page.length - 1]!.name : null;
    return { status: 200, body: listing(page.map((s) => linkWithComments(state, s)), after) };
  }));
}
