// My Business v4 localPosts on a location: create, list and get, with Google's bearer checks, the
// location's own checks (not found, not managed by the caller, not verified or suspended), the edit
// quota (10 a minute per location: 429 RESOURCE_EXHAUSTED), the LocalPost validation (400
// INVALID_ARGUMENT with a ValidationError), the photo fetched from its sourceUrl, and the review a
// post goes through (PROCESSING, then LIVE or REJECTED).
import type { Reply } from '../../shared/http.ts';
import { isPlainObject, jsonBody } from '../../shared/http.ts';
import { WindowLimiter } from '../../shared/rate.ts';
import {
  badRequest, editQuotaExceeded, errorInfo, INSUFFICIENT_SCOPES, INVALID_CREDENTIALS, INVALID_TOKEN_HEADER, localPostValidationError, MISSING_CREDENTIALS,
  preconditionFailed, richError,
} from '../errors.ts';
import type { GoogleUser } from '../state/accounts.ts';
import type { GoogleWorld } from '../state/world.ts';
import { fetchPhoto } from './photo-fetch.ts';
import { placeIdOf, type BusinessState, type StoredLocalPost } from './state.ts';
import { transcodedQuery } from '../validate/business-query.ts';
import type { QueryValues } from '../validate/query.ts';
import { OUTPUT_ONLY_FIELDS, validateLocalPost, WRITABLE_FIELDS } from '../validate/local-post.ts';

const SERVICE = 'mybusiness.googleapis.com';
const SCOPES = ['business.manage', 'plus.business.manage'].map((s) => `https://www.googleapis.com/auth/${s}`);
/** Limits page: "Edits: 10 per minute per Google Business Profile (cannot be increased)". */
const EDITS_PER_MINUTE = 10;
const NOT_FOUND = 'Requested entity was not found.';
const NO_PERMISSION = 'The caller does not have permission';
const INVALID = 'Request contains an invalid argument.';

export interface LocationParams {
  accountId: string;
  locationId: string;
}

export type Handled = Reply & { afterMs?: number };

export function businessRoutes(world: GoogleWorld, state: BusinessState) {
  const edits = new WindowLimiter();

  /** The token's user, or Google's 401/403. */
  const authenticate = (authorization: string | undefined, method: string): GoogleUser | Reply => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) return richError(401, MISSING_CREDENTIALS, [errorInfo('CREDENTIALS_MISSING', SERVICE, method)]);
    const check = world.oauth.checkAccess(match[1]);
    if (!check.ok) return richError(401, INVALID_CREDENTIALS, check.reason === 'expired' ? [errorInfo('ACCESS_TOKEN_EXPIRED', SERVICE, method)] : [], INVALID_TOKEN_HEADER);
    const user = world.store.users.get(check.userId);
    if (!user || !check.scopes.some((s) => SCOPES.includes(s))) return richError(403, INSUFFICIENT_SCOPES, [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', SERVICE, method)]);
    return user;
  };

  /** The location's name ("locations/{id}") when it exists and the user manages it. */
  const locationFor = (user: GoogleUser, params: LocationParams): string | Reply => {
    const account = world.store.accounts.get(`accounts/${params.accountId}`);
    const location = `locations/${params.locationId}`;
    if (!account || !account.locations.some((l) => l.name === location)) return richError(404, NOT_FOUND);
    if (account.ownerId !== user.id || !state.manages(user.id, location)) return richError(403, NO_PERMISSION);
    return location;
  };

  /** Reads and writes both need the caller and the location. */
  const open = (authorization: string | undefined, params: LocationParams, method: string): { user: GoogleUser; location: string } | Reply => {
    const user = authenticate(authorization, `google.mybusiness.v4.${method}`);
    if ('status' in user) return user;
    const location = locationFor(user, params);
    return typeof location === 'string' ? { user, location } : location;
  };

  async function create(authorization: string | undefined, params: LocationParams, raw: unknown): Promise<Handled> {
    const opened = open(authorization, params, 'CreateLocalPost');
    if ('status' in opened) return opened;
    const refused = locationRefusal(state.stateOf(opened.location));
    if (refused) return refused;
    const body = jsonBody(raw);
    if (!isPlainObject(body)) return richError(400, 'Invalid JSON payload received. Expected an object.', [badRequest('local_post', 'Invalid JSON payload received.')]);
    const unknown = Object.keys(body).find((k) => !WRITABLE_FIELDS.has(k) && !OUTPUT_ONLY_FIELDS.has(k));
    if (unknown !== undefined) {
      const message = `Invalid JSON payload received. Unknown name "${unknown}" at 'local_post': Cannot find field.`;
      return richError(400, message, [badRequest('local_post', message)]);
    }
    const problems = validateLocalPost(body);
    if (problems.length) return localPostValidationError(problems);
    const media = Array.isArray(body.media) ? body.media as Record<string, unknown>[] : [];
    // Posts refuse video with a bare 500 (README: reported by API users, not documented).
    if (media.some((m) => m.mediaFormat === 'VIDEO')) return richError(500, 'Internal error encountered.');
    const limit = edits.consume(opened.location, EDITS_PER_MINUTE, 60_000, world.clock.now());
    if (!limit.ok) return editQuotaExceeded(SERVICE);
    for (const item of media) {
      const fetched = await fetchPhoto(String(item.sourceUrl), { ca: state.extraCa, ...(state.fetchMedia ? { fetchMedia: state.fetchMedia } : {}) });
      if ('code' in fetched) return localPostValidationError([fetched]);
    }
    const stored = store(`accounts/${params.accountId}/${opened.location}`, opened.location, body);
    const afterMs = state.nextCreateDelayMs;
    state.nextCreateDelayMs = 0;
    return { status: 200, body: stored.post, afterMs };
  }

  function store(parent: string, location: string, body: Record<string, unknown>): StoredLocalPost {
    const id = state.newPostId();
    const now = world.clock.iso();
    const review = state.nextReview;
    state.nextReview = undefined;
    const { name: _n, createTime: _c, updateTime: _u, state: _s, searchUrl: _url, ...writable } = body;
    const media = Array.isArray(body.media)
      ? (body.media as Record<string, unknown>[]).map((m, i) => ({ name: `${parent}/media/${id}-${i}`, mediaFormat: m.mediaFormat, sourceUrl: m.sourceUrl, googleUrl: `https://lh3.googleusercontent.example/p/${id}-${i}` }))
      : undefined;
    const post = {
      name: `${parent}/localPosts/${id}`,
      languageCode: 'en',
      ...writable,
      ...(media ? { media } : {}),
      createTime: now,
      updateTime: now,
      state: review && review.reads > 0 ? 'PROCESSING' : (review?.verdict ?? 'LIVE'),
      searchUrl: `https://local.google.com/place?id=${placeIdOf(location)}&use=posts&lpsid=${id}`,
    };
    const stored: StoredLocalPost = { name: post.name, parent, received: body, post, readsLeft: review?.reads ?? 0, verdict: review?.verdict ?? 'LIVE' };
    state.posts.push(stored);
    return stored;
  }

  function list(authorization: string | undefined, params: LocationParams, values: QueryValues): Reply {
    const opened = open(authorization, params, 'ListLocalPosts');
    if ('status' in opened) return opened;
    const bound = transcodedQuery({ pageSize: {}, pageToken: {} }, values);
    if (!bound.ok) return bound.reply;
    const { query } = bound;
    const size = query.pageSize === undefined || query.pageSize === '' || query.pageSize === '0' ? 20 : Number(query.pageSize);
    if (!Number.isInteger(size) || size < 1 || size > 100) return richError(400, INVALID, [badRequest('page_size', 'Page size must be between 1 and 100')]);
    const offset = query.pageToken ? Number(Buffer.from(query.pageToken, 'base64url').toString('utf8').replace(/^offset:/, '')) : 0;
    if (!Number.isInteger(offset) || offset < 0) return richError(400, INVALID, [badRequest('page_token', 'Invalid page token')]);
    const parent = `accounts/${params.accountId}/${opened.location}`;
    // Newest first (README: the order is not documented).
    const all = state.posts.filter((p) => p.parent === parent && !p.deleted).reverse();
    const page = all.slice(offset, offset + size).map((p) => p.post);
    const next = offset + size < all.length ? Buffer.from(`offset:${offset + size}`).toString('base64url') : undefined;
    return { status: 200, body: { ...(page.length ? { localPosts: page } : {}), ...(next ? { nextPageToken: next } : {}) } };
  }

  function get(authorization: string | undefined, params: LocationParams & { postId: string }): Reply {
    const opened = open(authorization, params, 'GetLocalPost');
    if ('status' in opened) return opened;
    const stored = postOf(params, opened.location);
    if (!stored) return richError(404, NOT_FOUND);
    if (stored.readsLeft > 0) stored.readsLeft -= 1;
    else if (stored.post.state === 'PROCESSING') stored.post = { ...stored.post, state: stored.verdict, updateTime: world.clock.iso() };
    return { status: 200, body: stored.post };
  }

  /** localPosts.delete: an empty body; the post is no longer listed or read. */
  function remove(authorization: string | undefined, params: LocationParams & { postId: string }): Reply {
    const opened = open(authorization, params, 'DeleteLocalPost');
    if ('status' in opened) return opened;
    const stored = postOf(params, opened.location);
    if (!stored) return richError(404, NOT_FOUND);
    stored.deleted = true;
    return { status: 200, body: {} };
  }

  const postOf = (params: LocationParams & { postId: string }, location: string) =>
    state.posts.find((p) => p.name === `accounts/${params.accountId}/${location}/localPosts/${params.postId}` && !p.deleted);

  return { create, list, get, remove };
}

/** A location that may not post: FAILED_PRECONDITION, with the reason (README: not confirmed). */
function locationRefusal(locationState: string): Reply | undefined {
  if (locationState === 'UNVERIFIED') return preconditionFailed('Location is not verified.', 'LOCATION_NOT_VERIFIED', SERVICE);
  if (locationState === 'SUSPENDED') return preconditionFailed('Location is suspended.', 'LOCATION_SUSPENDED', SERVICE);
  return undefined;
}
