// The account's boards, for a client to fill `pinterest.board_id` (GET /v1/social-accounts/:id/boards):
// every page of GET /v5/boards (bookmark-paged, up to 250 a page), as {id, name, description, privacy}.
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { PinterestClient } from './client.ts';

/** Pinterest's largest page. */
const PAGE = 250;
/** Far more boards than anyone keeps: the listing stops there rather than page forever. */
const MAX_BOARDS = 5000;

/** Every board of the account (GET /v1/social-accounts/:id/boards: the listing pinterest/index.ts declares). */
export async function listBoards(apiUrl: string, session: AccountSession, _params: Record<string, string> = {}): Promise<Record<string, unknown>[]> {
  const token = session.account.accessToken;
  if (!token) throw new PublishError('auth', 'pinterest: the account has no access token; reconnect it', undefined, 'auth');
  const client = new PinterestClient(apiUrl, token);
  const boards: Record<string, unknown>[] = [];
  let bookmark: string | undefined;
  do {
    const page = await client.boards(bookmark, PAGE);
    for (const b of page.items) boards.push({ id: b.id, name: b.name, description: b.description ?? null, privacy: b.privacy ?? 'PUBLIC' });
    bookmark = page.bookmark ?? undefined;
  } while (bookmark && boards.length < MAX_BOARDS);
  return boards;
}
