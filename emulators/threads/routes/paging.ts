// Graph's cursor paging as Threads lists answer it: `limit` (default 25, at most 100), `after` /
// `before` cursors (not both), `{data, paging: {cursors: {before, after}, next?, previous?}}` with
// `next` only when more follow. Each item is rendered with the requested fields (an unknown field
// refuses the whole call).
import type { Reply } from '../../shared/http.ts';
import { metaError } from '../errors.ts';

const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 25;

const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
const position = (value: string) => Number(Buffer.from(value, 'base64url').toString('utf8'));

/** A page of `all` (already in answer order), or Graph's refusal. */
export function pageOf<T>(all: T[], params: Record<string, string | undefined>, render: (item: T) => Record<string, unknown> | Reply): Reply {
  if (params.after && params.before) return metaError('(#100) Only one of the before and after parameters may be given', 100, undefined, 400, 'THApiException');
  const limit = Math.min(Math.max(Number(params.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT, 1), MAX_LIMIT);
  const after = params.after === undefined ? undefined : position(params.after);
  const before = params.before === undefined ? undefined : position(params.before);
  if ((after !== undefined && !Number.isInteger(after)) || (before !== undefined && !Number.isInteger(before))) {
    return metaError('(#100) The cursor is not valid', 100, undefined, 400, 'THApiException');
  }
  const start = after ?? (before !== undefined ? Math.max(0, before - limit) : 0);
  const end = before !== undefined && after === undefined ? before : start + limit;
  const data: Record<string, unknown>[] = [];
  for (const item of all.slice(start, end)) {
    const rendered = render(item);
    if (isRefusal(rendered)) return rendered;
    data.push(rendered);
  }
  const more = end < all.length;
  return {
    status: 200,
    body: {
      data,
      paging: {
        cursors: { before: cursor(start), after: cursor(start + data.length) },
        ...(more ? { next: `?after=${cursor(start + data.length)}&limit=${limit}` } : {}),
        ...(start > 0 ? { previous: `?before=${cursor(start)}&limit=${limit}` } : {}),
      },
    },
  };
}

const isRefusal = (value: Record<string, unknown> | Reply): value is Reply => typeof (value as Reply).status === 'number' && 'body' in value;
