// Boards (API v5): boards/list (GET /v5/boards, paged, filtered by `privacy`), boards/create
// (POST /v5/boards) and boards/list_pins (GET /v5/boards/{board_id}/pins, the user's own board).
import { isPlainObject, jsonBody, firstValues } from '../../shared/http.ts';
import { boardNotFound, invalid } from '../errors.ts';
import type { BoardPrivacy, PinterestBoard } from '../state.ts';
import { bodyProblems } from '../validate.ts';
import { operation, paged, type ApiContext, type Route } from './common.ts';
import { pinBody } from './pins.ts';

/**
 * boards/list's `privacy` filter (BoardPrivacyFilter): the boards of that privacy; ALL, or none given,
 * every board; PUBLIC_AND_SECRET both of those.
 */
const PRIVACY_FILTER: Record<string, BoardPrivacy[]> = {
  ALL: ['PUBLIC', 'PROTECTED', 'SECRET'], PUBLIC: ['PUBLIC'], PROTECTED: ['PROTECTED'], SECRET: ['SECRET'], PUBLIC_AND_SECRET: ['PUBLIC', 'SECRET'],
};

export function registerBoardRoutes(route: Route, ctx: ApiContext): void {
  const { state } = ctx;
  operation(route, ctx, { method: 'GET', url: '/v5/boards', template: '/boards' }, (u, req) => {
    const query = firstValues(req.query);
    const shown = PRIVACY_FILTER[query.privacy ?? 'ALL']!;
    const boards = state.boardsOf(u.id).filter((b) => shown.includes(b.privacy));
    return paged(boards.map((b) => boardBody(b, u.username)), query);
  });
  operation(route, ctx, { method: 'POST', url: '/v5/boards', template: '/boards' }, (u, req) => {
    const body = jsonBody(req.body);
    const [problem] = bodyProblems('POST', '/boards', body);
    if (problem) return invalid(`Invalid parameters: ${problem}`);
    if (!isPlainObject(body) || typeof body.name !== 'string' || !body.name) return invalid("Invalid parameters: 'name' is required");
    const board = state.addBoard({ ownerId: u.id, name: body.name, description: typeof body.description === 'string' ? body.description : null, privacy: (body.privacy ?? 'PUBLIC') as BoardPrivacy });
    return { status: 201, body: boardBody(board, u.username) };
  });
  operation(route, ctx, { method: 'GET', url: '/v5/boards/:board_id/pins', template: '/boards/{board_id}/pins' }, (u, req) => {
    const board = state.boards.get((req.params as { board_id: string }).board_id);
    if (!board || board.ownerId !== u.id) return boardNotFound();
    const pins = state.pins.filter((p) => p.boardId === board.id).reverse();
    return paged(pins.map((p) => pinBody(p, u.username)), firstValues(req.query));
  });
}

/** A board as the API answers it (Board). */
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
