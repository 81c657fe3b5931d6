// The publishing side of the Pinterest emulator (API v5): boards (GET paged by bookmark, POST),
// pins (POST /v5/pins, GET /v5/pins/{id}, GET /v5/boards/{id}/pins), video media (POST /v5/media,
// GET /v5/media/{id}) and the upload URL /v5/media hands out (an S3-style multipart POST answering
// 204, or an XML error). Every call needs a good bearer token with the operation's scopes (401 code 2,
// 403 code 29); writes may be rate limited (429 code 8). Each call is logged, in order.
import type { FastifyRequest } from 'fastify';
import { bearerToken, firstValues, isPlainObject, jsonBody, multipartBody, type Reply } from '../shared/http.ts';
import type { OAuthServer } from '../shared/oauth.ts';
import { WindowLimiter } from '../shared/rate.ts';
import { accountAnalytics, pinAnalytics } from './analytics.ts';
import { apiError, boardNotFound, createPin, pinBody, type Fetcher } from './pins.ts';
import { fileOf, type BoardPrivacy, type PinterestBoard, type PinterestStore } from './store.ts';

export const UPLOAD_PATH = '/media-upload/';

export interface ApiDeps {
  store: PinterestStore;
  oauth: OAuthServer;
  usernameOf(userId: string): string | undefined;
  fetcher: Fetcher;
  /** Where the emulator listens (upload URLs point there). */
  origin(): string;
  /** Writes (pins, media) a user may make in a window; undefined: unlimited. */
  writeLimit(): { limit: number; windowMs: number } | undefined;
  now(): number;
}

type Handler = (req: FastifyRequest) => Reply | Promise<Reply>;
type Route = (method: 'GET' | 'POST' | 'DELETE', url: string, handler: Handler, bodyLimit?: number) => void;

const authFailed = () => apiError(401, 2, 'Authentication failed.');
const notPermitted = () => apiError(403, 29, 'You are not permitted to access that resource.');
const RATE_LIMITED = 'This request exceeded a rate limit. This can happen if the client exceeds one of the published rate limits within a short time window.';

/** An upload form as large as a test's video. */
const UPLOAD_LIMIT = 512 * 1024 * 1024;

export function registerApi(route: Route, deps: ApiDeps): void {
  const { store } = deps;
  const limiter = new WindowLimiter();
  const user = (req: FastifyRequest, scopes: string[]): { id: string; username: string } | Reply => {
    const check = deps.oauth.checkAccess(bearerToken(req.headers.authorization));
    const username = check.ok ? deps.usernameOf(check.userId) : undefined;
    if (!check.ok || username === undefined) return authFailed();
    if (!scopes.every((s) => check.scopes.includes(s))) return notPermitted();
    return { id: check.userId, username };
  };
  const authed = (scopes: string[], handle: (u: { id: string; username: string }, req: FastifyRequest) => Reply | Promise<Reply>): Handler => async (req) => {
    const u = user(req, scopes);
    const reply = 'status' in u ? u : await handle(u, req);
    store.calls.push({ method: req.method, path: req.url.split('?')[0]!, status: reply.status, query: firstValues(req.query), ...('status' in u ? {} : { userId: u.id }) });
    return reply;
  };
  const limited = (u: { id: string }): Reply | undefined => {
    const limit = deps.writeLimit();
    if (!limit) return undefined;
    const result = limiter.consume(u.id, limit.limit, limit.windowMs, deps.now());
    if (result.ok) return undefined;
    const headers = { 'x-ratelimit-limit': String(result.limit), 'x-ratelimit-remaining': String(result.remaining), 'x-ratelimit-reset': String(result.reset) };
    return { ...apiError(429, 8, RATE_LIMITED), headers };
  };

  route('GET', '/v5/boards', authed(['boards:read'], (u, req) => paged(store.boardsOf(u.id).map((b) => boardBody(b, u.username)), firstValues(req.query))));
  route('POST', '/v5/boards', authed(['boards:read', 'boards:write'], (u, req) => {
    const body = jsonBody(req.body);
    if (!isPlainObject(body) || typeof body.name !== 'string' || !body.name) return apiError(400, 1, "Invalid parameters: 'name' is required");
    const privacy = (body.privacy ?? 'PUBLIC') as BoardPrivacy;
    if (!['PUBLIC', 'PROTECTED', 'SECRET'].includes(privacy)) return apiError(400, 1, "Invalid parameters: 'privacy' must be PUBLIC, PROTECTED or SECRET");
    const board = store.addBoard({ ownerId: u.id, name: body.name, description: typeof body.description === 'string' ? body.description : null, privacy });
    return { status: 201, body: boardBody(board, u.username) };
  }));
  route('GET', '/v5/boards/:board_id/pins', authed(['boards:read', 'pins:read'], (u, req) => {
    const board = store.boards.get((req.params as { board_id: string }).board_id);
    if (!board || board.ownerId !== u.id) return boardNotFound();
    const pins = store.pins.filter((p) => p.boardId === board.id).reverse();
    return paged(pins.map((p) => pinBody(p, u.username)), firstValues(req.query));
  }));
  route('POST', '/v5/pins', authed(['boards:read', 'boards:write', 'pins:read', 'pins:write'], async (u, req) => {
    return limited(u) ?? createPin(store, u, jsonBody(req.body), deps.fetcher);
  }), 64 * 1024 * 1024);
  const ownPin = (u: { id: string }, req: FastifyRequest) => store.pins.find((p) => p.id === (req.params as { pin_id: string }).pin_id && p.ownerId === u.id);
  // pins/list: every Pin the user owns, newest first (README: the order is not documented).
  route('GET', '/v5/pins', authed(['boards:read', 'pins:read'], (u, req) => {
    const pins = store.pins.filter((p) => p.ownerId === u.id).reverse();
    return paged(pins.map((p) => pinBody(p, u.username)), firstValues(req.query));
  }));
  route('GET', '/v5/pins/:pin_id', authed(['pins:read'], (u, req) => {
    const pin = ownPin(u, req);
    return pin ? { status: 200, body: pinBody(pin, u.username) } : apiError(404, 404, 'Pin not found.');
  }));
  route('DELETE', '/v5/pins/:pin_id', authed(['boards:read', 'boards:write', 'pins:read', 'pins:write'], (u, req) => {
    const pin = ownPin(u, req);
    if (!pin) return apiError(404, 404, 'Pin not found.');
    store.pins.splice(store.pins.indexOf(pin), 1);
    return { status: 204 };
  }));
  route('GET', '/v5/pins/:pin_id/analytics', authed(['boards:read', 'pins:read'], (u, req) => {
    const pin = ownPin(u, req);
    if (!pin) return apiError(404, 404, 'Pin not found.');
    return pinAnalytics(pin, store.pinDays.get(pin.id) ?? [], store.pinLifetime.get(pin.id) ?? {}, firstValues(req.query), deps.now());
  }));
  route('GET', '/v5/user_account/analytics', authed(['user_accounts:read'], (u, req) => accountAnalytics(store.accountDays.get(u.id) ?? [], firstValues(req.query), deps.now())));
  route('POST', '/v5/media', authed(['pins:read', 'pins:write'], (u, req) => {
    const body = jsonBody(req.body);
    if (!isPlainObject(body) || body.media_type !== 'video') return apiError(400, 1, "Invalid parameters: 'media_type' must be 'video'");
    const refused = limited(u);
    if (refused) return refused;
    const media = store.registerMedia(u.id);
    return { status: 201, body: { media_id: media.id, media_type: 'video', upload_url: `${deps.origin()}${UPLOAD_PATH}`, upload_parameters: media.uploadParameters } };
  }));
  route('GET', '/v5/media/:media_id', authed(['pins:read'], (u, req) => {
    const media = store.media.get((req.params as { media_id: string }).media_id);
    if (!media || media.ownerId !== u.id) return apiError(404, 404, 'Media not found.');
    return { status: 200, body: { media_id: media.id, media_type: 'video', status: store.poll(media) } };
  }));
  route('POST', UPLOAD_PATH, (req) => upload(store, req), UPLOAD_LIMIT);
}

/** The S3 POST: every field of the media's upload_parameters back unchanged, then `file`. */
async function upload(store: PinterestStore, req: FastifyRequest): Promise<Reply> {
  const reply = await uploadReply(store, req);
  store.calls.push({ method: 'POST', path: UPLOAD_PATH, status: reply.status });
  return reply;
}

async function uploadReply(store: PinterestStore, req: FastifyRequest): Promise<Reply> {
  const form = await multipartBody(req.body, req.headers['content-type'] ?? '');
  if (!form) return s3Error(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');
  const key = form.get('key');
  const media = [...store.media.values()].find((m) => m.uploadParameters.key === key);
  if (!media) return s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key", ...]');
  for (const [name, value] of Object.entries(media.uploadParameters)) {
    if (form.get(name) !== value) return s3Error(403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}", ...]`);
  }
  if (store.uploadsExpired) return s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  const file = form.get('file');
  if (!(file instanceof Blob)) return s3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  const bytes = Buffer.from(await file.arrayBuffer());
  store.uploaded(media, fileOf(bytes, file.type || 'application/octet-stream', 'upload'));
  return { status: 204 };
}

function s3Error(status: number, code: string, message: string): Reply {
  return { status, headers: { 'content-type': 'application/xml' }, body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>` };
}

/** `{items, bookmark}` paging: page_size 1 to 250 (default 25); the bookmark is an opaque offset. */
function paged(all: Record<string, unknown>[], query: Record<string, string | undefined>): Reply {
  const size = query.page_size === undefined ? 25 : Number(query.page_size);
  if (!Number.isInteger(size) || size < 1 || size > 250) return apiError(400, 1, "Invalid parameters: 'page_size' must be between 1 and 250");
  const start = query.bookmark ? Number(Buffer.from(query.bookmark, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(start) || start < 0) return apiError(400, 1, "Invalid parameters: 'bookmark' is not valid");
  const end = start + size;
  return { status: 200, body: { items: all.slice(start, end), bookmark: end < all.length ? Buffer.from(String(end)).toString('base64url') : null } };
}

function boardBody(board: PinterestBoard, username: string): Record<string, unknown> {
  return {
    id: board.id,
    name: board.name,
    description: board.description,
    privacy: board.privacy,
    owner: { username },
    created_at: board.createdAt,
    board_pins_modified_at: board.createdAt,
    collaborator_count: 0,
    follower_count: 0,
    pin_count: 0,
    is_ads_only: false,
    media: { image_cover_url: null, pin_thumbnail_urls: [] },
  };
}
