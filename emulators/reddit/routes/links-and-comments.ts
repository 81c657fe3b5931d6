// Links & comments on oauth.reddit.com: POST /api/submit and /api/comment (form-encoded,
// api_type=json, refusals as HTTP 200 with json.errors, forms checked by validate.ts), POST /api/del,
// GET /api/info, and GET|POST /api/morechildren (the comments a `more` stub stood in for).
import type { FastifyRequest } from 'fastify';
import { rawBody } from '../../shared/http.ts';
import { refused } from '../errors.ts';
import type { RedditUser } from '../state.ts';
import { commentThing, linkWithComments, listing } from '../things.ts';
import { moreChildren } from '../threads.ts';
import { checkComment, checkSubmit, rateLimitError } from '../validate.ts';
import type { Routing } from './common.ts';

/** /api/morechildren reads at most 100 ids ("no more than 100" in Reddit's API reference). */
const MAX_MORE_CHILDREN = 100;

export function registerLinkAndCommentRoutes({ route, api, state }: Routing): void {
  const formOf = (req: FastifyRequest, user: RedditUser, path: string) => {
    const form = new URLSearchParams(rawBody(req.body).toString('utf8'));
    state.received.push({ path, user: user.name, userAgent: req.headers['user-agent'] ?? '', form: Object.fromEntries(form) });
    return form;
  };

  route('POST', '/api/submit', true, api('submit', (req, user) => {
    const form = formOf(req, user, '/api/submit');
    const limited = rateLimitError(state, user.name);
    if (limited) return refused(form, limited.errors, limited.ratelimit);
    const checked = checkSubmit(state, user.name, form);
    if (Array.isArray(checked)) return refused(form, checked);
    const made = state.addSubmission(checked);
    if (form.get('api_type') !== 'json') return { status: 200, body: { jquery: [], success: true } };
    return { status: 200, body: { json: { errors: [], data: { url: `https://www.reddit.com${made.permalink}`, drafts_count: 0, id: made.id, name: made.name } } } };
  }));

  route('POST', '/api/comment', true, api('submit', (req, user) => {
    const form = formOf(req, user, '/api/comment');
    const limited = rateLimitError(state, user.name);
    if (limited) return refused(form, limited.errors, limited.ratelimit);
    const checked = checkComment(state, form);
    if (Array.isArray(checked)) return refused(form, checked);
    const made = state.addComment({ author: user.name, ...checked });
    return { status: 200, body: { json: { errors: [], data: { things: [commentThing(made)] } } } };
  }));

  // Deleting the author's own link or comment (scope edit): {} whatever happened, as reddit's POST_del.
  route('POST', '/api/del', true, api('edit', (req, user) => {
    const form = formOf(req, user, '/api/del');
    state.del(user.name, form.get('id') ?? '');
    return { status: 200, body: {} };
  }));

  route('GET', '/api/info', true, api('read', (req) => {
    const ids = String((req.query as Record<string, unknown>).id ?? '').split(',').filter(Boolean);
    const things = ids.flatMap((id): unknown[] => {
      const found = id.startsWith('t3_') ? state.submission(id.slice(3)) : undefined;
      if (found) return [linkWithComments(state, found)];
      const comment = state.comment(id);
      return comment ? [commentThing(comment)] : [];
    });
    return { status: 200, body: listing(things) };
  }));

  // The comments a `more` stub named, flat (depth and parent_id say where each goes), as
  // {json: {errors, data: {things}}}; GET as Reddit's reference documents it, POST as clients also send it.
  const moreChildrenRoute = api('read', (req) => {
    const q = { ...(req.query as Record<string, string | undefined>), ...(req.method === 'POST' ? Object.fromEntries(new URLSearchParams(rawBody(req.body).toString('utf8'))) : {}) };
    const submission = state.submission(String(q.link_id ?? '').replace(/^t3_/, ''));
    const ids = String(q.children ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!submission || !ids.length) return { status: 200, body: { json: { errors: [['NO_THING_ID', 'id not specified', 'link_id']] } } };
    const things = moreChildren(state, submission.name, ids.slice(0, MAX_MORE_CHILDREN), q.sort);
    return { status: 200, body: { json: { errors: [], data: { things } } } };
  });
  route('GET', '/api/morechildren', true, moreChildrenRoute);
  route('POST', '/api/morechildren', true, moreChildrenRoute);
}
