// Graph's cursor paging as the engagement routes answer it: `limit` (default and cap per edge),
// `after`/`before` cursors, and `paging: {cursors: {before, after}, next?}` where `next` is the full
// URL of the next page with the token and the request's other parameters, as Graph sends it.
import type { FbRequest } from './routes/context.ts';

const encode = (index: number) => Buffer.from(`i:${index}`).toString('base64url');

/** The index a cursor stands for; undefined for none or one the emulator never gave. */
export function decodeCursor(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^i:(\d+)$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

export interface GraphPage<T> {
  items: T[];
  paging?: { cursors: { before: string; after: string }; next?: string };
}

/** One page of `all` for the request at `path` (below the version): `after` continues after an item. */
export function pageOf<T>(req: FbRequest, all: T[], path: string, limits: { default: number; max: number }): GraphPage<T> {
  const limit = Math.min(Math.max(Number(req.query.limit ?? limits.default) || limits.default, 1), limits.max);
  const after = decodeCursor(req.query.after);
  const start = after === undefined ? 0 : after + 1;
  const items = all.slice(start, start + limit);
  if (!items.length) return { items };
  const last = start + items.length - 1;
  const paging: GraphPage<T>['paging'] = { cursors: { before: encode(start), after: encode(last) } };
  if (last + 1 < all.length) {
    const next = new URL(`${req.origin}/${req.params.version}${path}`);
    for (const [name, value] of Object.entries(req.query)) if (value !== undefined && name !== 'after' && name !== 'before') next.searchParams.set(name, value);
    if (req.token && !next.searchParams.has('access_token')) next.searchParams.set('access_token', req.token);
    next.searchParams.set('limit', String(limit));
    next.searchParams.set('after', encode(last));
    paging.next = next.toString();
  }
  return { items, paging };
}

/** Graph's answer for a page: {data, paging?}. */
export const listBody = (data: unknown[], page: GraphPage<unknown>) => ({ data, ...(page.paging ? { paging: page.paging } : {}) });

/** Graph's time format: 2026-11-24T21:50:11+0000. */
export const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
