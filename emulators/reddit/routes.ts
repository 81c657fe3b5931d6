// The reddit emulator's posting routes on oauth.reddit.com: POST /api/submit and /api/comment
// (form-encoded, api_type=json, refusals as HTTP 200 with json.errors) and the reads that show what
// was posted, and what comes after: /api/info, /comments/{id} (threaded, threads.ts),
// /api/morechildren, /user/{name}/submitted, and POST /api/del.
import type { FastifyRequest } from 'fastify';
import { rawBody, type Reply } from '../shared/http.ts';
import { statusError } from './errors.ts';
import { commentThing, linkThing, listing, type RedditError, type Submission, type SubmissionStore } from './submissions.ts';
import { DEFAULT_DEPTH, moreChildren, renderLevel } from './threads.ts';

export interface ReceivedForm {
  path: string;
  user: string;
  userAgent: string;
  form: Record<string, string>;
}

type Handler = (req: FastifyRequest) => Reply;
type ApiHandler = (req: FastifyRequest, user: { name: string }) => Reply;

export interface PostingDeps {
  route(method: 'GET' | 'POST', url: string, agentChecked: boolean, handler: Handler): unknown;
  api(scope: string, handler: ApiHandler): Handler;
  store: SubmissionStore;
  received: ReceivedForm[];
  userExists(name: string): boolean;
}

const MAX_LIMIT = 100;
const MAX_COMMENTS = 500;
/** /api/morechildren reads at most 100 ids ("no more than 100" in Reddit's API reference). */
const MAX_MORE_CHILDREN = 100;

/** Reddit's answer to a refused call; without api_type=json, the old jQuery-style one (not reproduced in detail). */
const refused = (form: URLSearchParams, errors: RedditError[], ratelimit?: number): Reply =>
  form.get('api_type') === 'json'
    ? { status: 200, body: { json: { ...(ratelimit === undefined ? {} : { ratelimit }), errors } } }
    : { status: 200, body: { jquery: [], success: false } };

export function registerPostingRoutes(deps: PostingDeps): void {
  const { route, api, store } = deps;
  const link = (s: Submission) => linkThing(s, store.comments.filter((c) => c.linkId === s.name && !c.deleted).length);
  const formOf = (req: FastifyRequest, user: { name: string }, path: string) => {
    const form = new URLSearchParams(rawBody(req.body).toString('utf8'));
    deps.received.push({ path, user: user.name, userAgent: req.headers['user-agent'] ?? '', form: Object.fromEntries(form) });
    return form;
  };

  route('POST', '/api/submit', true, api('submit', (req, user) => {
    const form = formOf(req, user, '/api/submit');
    const limited = store.rateLimited(user.name);
    if (limited) return refused(form, limited.errors, limited.ratelimit);
    const result = store.submit(user.name, form);
    if (Array.isArray(result)) return refused(form, result);
    if (form.get('api_type') !== 'json') return { status: 200, body: { jquery: [], success: true } };
    return { status: 200, body: { json: { errors: [], data: { url: `https://www.reddit.com${result.permalink}`, drafts_count: 0, id: result.id, name: result.name } } } };
  }));

  route('POST', '/api/comment', true, api('submit', (req, user) => {
    const form = formOf(req, user, '/api/comment');
    const limited = store.rateLimited(user.name);
    if (limited) return refused(form, limited.errors, limited.ratelimit);
    const result = store.comment(user.name, form);
    if (Array.isArray(result)) return refused(form, result);
    return { status: 200, body: { json: { errors: [], data: { things: [commentThing(result)] } } } };
  }));

  route('GET', '/api/info', true, api('read', (req) => {
    const ids = String((req.query as Record<string, unknown>).id ?? '').split(',').filter(Boolean);
    const things = ids.flatMap((id): unknown[] => {
      const found = id.startsWith('t3_') ? store.submission(id.slice(3)) : undefined;
      if (found) return [link(found)];
      const comment = store.comments.find((c) => c.name === id);
      return comment ? [commentThing(comment)] : [];
    });
    return { status: 200, body: listing(things) };
  }));

  // The submission and its comment tree: `limit` comments in all (default 200, max 500), `depth`
  // levels (default 10), `sort=new` newest first; what does not fit stands in `more` stubs.
  route('GET', '/comments/:id', true, api('read', (req) => {
    const { id } = req.params as { id: string };
    const submission = store.submission(id.replace(/^t3_/, ''));
    if (!submission) return statusError(404);
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(MAX_COMMENTS, Math.max(1, Number(q.limit) || 200));
    const depth = Math.max(1, Number(q.depth) || DEFAULT_DEPTH);
    const tree = renderLevel(store, submission.name, 0, { sort: q.sort, depth }, { left: limit });
    return { status: 200, body: [listing([link(submission)]), listing(tree)] };
  }));

  // The comments a `more` stub named, flat (depth and parent_id say where each goes), as
  // {json: {errors, data: {things}}}; GET as Reddit's reference documents it, POST as clients also send it.
  const moreChildrenRoute = api('read', (req) => {
    const q = { ...(req.query as Record<string, string | undefined>), ...(req.method === 'POST' ? Object.fromEntries(new URLSearchParams(rawBody(req.body).toString('utf8'))) : {}) };
    const submission = store.submission(String(q.link_id ?? '').replace(/^t3_/, ''));
    const ids = String(q.children ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!submission || !ids.length) return { status: 200, body: { json: { errors: [['NO_THING_ID', 'id not specified', 'link_id']] } } };
    const things = moreChildren(store, submission.name, ids.slice(0, MAX_MORE_CHILDREN), q.sort);
    return { status: 200, body: { json: { errors: [], data: { things } } } };
  });
  route('GET', '/api/morechildren', true, moreChildrenRoute);
  route('POST', '/api/morechildren', true, moreChildrenRoute);

  // Deleting the author's own link or comment (scope edit): {} whatever happened, as reddit's POST_del.
  route('POST', '/api/del', true, api('edit', (req, user) => {
    const form = formOf(req, user, '/api/del');
    store.del(user.name, form.get('id') ?? '');
    return { status: 200, body: {} };
  }));

  // The link flairs a user may pick in the subreddit (scope flair). Reddit answers 403 when users
  // cannot assign their own flair there, and 404 for a subreddit that does not exist.
  route('GET', '/r/:sr/api/link_flair_v2', true, api('flair', (req) => {
    const sr = store.subreddits.get((req.params as { sr: string }).sr.toLowerCase());
    if (!sr) return statusError(404);
    if (!sr.flairSelectable) return statusError(403);
    return { status: 200, body: sr.flairs.map((f) => ({ ...f })) };
  }));

  // The user's submissions (scope history), deleted ones left out, newest first.
  route('GET', '/user/:name/submitted', true, api('history', (req) => {
    const { name } = req.params as { name: string };
    if (!deps.userExists(name)) return statusError(404);
    const q = req.query as Record<string, string | undefined>;
    const limit = Math.min(MAX_LIMIT, Math.max(1, Number(q.limit) || 25));
    const mine = store.submissions.filter((s) => s.author.toLowerCase() === name.toLowerCase() && !s.deleted).reverse();
    const start = q.after ? mine.findIndex((s) => s.name === q.after) + 1 : 0;
    const page = mine.slice(start, start + limit);
    const after = start + limit < mine.length ? page[page.length - 1]!.name : null;
    return { status: 200, body: listing(page.map((s) => link(s)), after) };
  }));
}
