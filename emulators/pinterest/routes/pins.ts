// Pins (API v5): pins/create (POST /v5/pins: the PinCreate body checked against the description, the
// board the user's own, the media_source received as media-sources.ts makes it), pins/list (GET
// /v5/pins), pins/get and pins/delete (GET|DELETE /v5/pins/{pin_id}, the user's own pins).
import type { FastifyRequest } from 'fastify';
import { firstValues, isPlainObject, jsonBody, type Reply } from '../../shared/http.ts';
import { boardNotFound, invalid, pinNotFound } from '../errors.ts';
import { mediaOf, Refusal, type ResolvedMedia } from '../media-sources.ts';
import { numericId, type PinterestPin, type PinterestState } from '../state.ts';
import { bodyProblems } from '../validate.ts';
import { operation, paged, writeRefusal, type ApiContext, type ApiUser, type Fetcher, type Route } from './common.ts';

/** A pin form as large as a test's base64 images. */
const PIN_BODY_LIMIT = 64 * 1024 * 1024;

export function registerPinRoutes(route: Route, ctx: ApiContext): void {
  const { state } = ctx;
  operation(route, ctx, { method: 'POST', url: '/v5/pins', template: '/pins', bodyLimit: PIN_BODY_LIMIT }, async (u, req) => {
    return writeRefusal(ctx, u) ?? createPin(state, u, jsonBody(req.body), ctx.fetcher);
  });
  // pins/list: every Pin the user owns, newest first (README: the order is not documented).
  operation(route, ctx, { method: 'GET', url: '/v5/pins', template: '/pins' }, (u, req) => {
    const pins = state.pins.filter((p) => p.ownerId === u.id).reverse();
    return paged(pins.map((p) => pinBody(p, u.username)), firstValues(req.query));
  });
  operation(route, ctx, { method: 'GET', url: '/v5/pins/:pin_id', template: '/pins/{pin_id}' }, (u, req) => {
    const pin = ownPin(state, u, req);
    return pin ? { status: 200, body: pinBody(pin, u.username) } : pinNotFound();
  });
  operation(route, ctx, { method: 'DELETE', url: '/v5/pins/:pin_id', template: '/pins/{pin_id}' }, (u, req) => {
    const pin = ownPin(state, u, req);
    if (!pin) return pinNotFound();
    state.pins.splice(state.pins.indexOf(pin), 1);
    return { status: 204 };
  });
}

/** The pin the path names, when the token's user owns it. */
export function ownPin(state: PinterestState, user: { id: string }, req: FastifyRequest): PinterestPin | undefined {
  const id = (req.params as { pin_id: string }).pin_id;
  return state.pins.find((p) => p.id === id && p.ownerId === user.id);
}

async function createPin(state: PinterestState, user: ApiUser, body: unknown, fetcher: Fetcher): Promise<Reply> {
  const [problem] = bodyProblems('POST', '/pins', body);
  if (problem) return invalid(`Invalid parameters: ${problem}`);
  if (!isPlainObject(body)) return invalid('Invalid request body: expected a JSON object');
  // PinCreate lists neither as required; a pin without a board or media cannot be made.
  if (typeof body.board_id !== 'string') return invalid("Invalid parameters: 'board_id' is required");
  const board = state.boards.get(body.board_id);
  if (!board || board.ownerId !== user.id) return boardNotFound();
  if (!isPlainObject(body.media_source)) return invalid("Invalid parameters: 'media_source' is required");
  let media: ResolvedMedia;
  try {
    media = await mediaOf(state, user.id, body.media_source, fetcher);
  } catch (error) {
    if (error instanceof Refusal) return error.reply;
    throw error;
  }
  const text = (field: string) => (typeof body[field] === 'string' ? (body[field] as string) : null);
  const pin: PinterestPin = {
    id: numericId(8),
    ownerId: user.id,
    boardId: board.id,
    title: text('title'),
    description: text('description'),
    link: text('link'),
    altText: text('alt_text'),
    mediaType: media.mediaType,
    mediaSource: media.source,
    files: media.files,
    createdAt: state.now(),
  };
  state.pins.push(pin);
  return { status: 201, body: pinBody(pin, user.username) };
}

/** A pin as the API answers it (Pin). */
export function pinBody(pin: PinterestPin, username: string): Record<string, unknown> {
  return {
    id: pin.id,
    created_at: pin.createdAt,
    board_id: pin.boardId,
    board_owner: { username },
    board_section_id: null,
    title: pin.title,
    description: pin.description,
    link: pin.link,
    alt_text: pin.altText,
    dominant_color: '#6E7874',
    parent_pin_id: pin.parentPinId ?? null,
    is_owner: true,
    is_standard: true,
    has_been_promoted: false,
    creative_type: pin.mediaType === 'video' ? 'VIDEO' : pin.mediaType === 'multiple_images' ? 'CAROUSEL' : 'REGULAR',
    media: pin.mediaType === 'multiple_images'
      ? { media_type: pin.mediaType, items: pin.files.map(() => ({ item_type: 'image', images: {} })) }
      : { media_type: pin.mediaType },
  };
}
