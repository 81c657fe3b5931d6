// What the Vimeo routes share: the caller (the member a bearer token stands for, with the token's
// scopes), the objects answered (a video, a member), the route shape, and Vimeo's paged lists.
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../shared/clock.ts';
import type { Reply } from '../../shared/http.ts';
import type { OAuthServer } from '../../shared/oauth.ts';
import { videoNotFound } from '../errors.ts';
import { canView, type VideoStore, type VimeoUser, type VimeoVideo } from '../state.ts';
import { isReply, queryOf } from '../validate.ts';

export interface Member {
  id: string;
  /** 'basic' (Vimeo Basic), or a paid plan ('plus', 'pro', ...). */
  account: string;
  /** The scopes the token was granted. */
  scopes: string[];
}

export interface VimeoContext {
  clock: Clock;
  oauth: OAuthServer;
  users: Map<string, VimeoUser>;
  store: VideoStore;
  /** The emulator's own URL (upload links point back at it). */
  origin(): string;
  /** The member the bearer token stands for, or the error reply (401 8000 unknown, 8003 revoked). */
  authenticate(req: FastifyRequest): Member | Reply;
  /** The member's public user object (a video's or a comment's `user`); null for a member who left Vimeo. */
  userOf(id: string): Record<string, unknown> | null;
}

export interface VimeoRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  handler(req: FastifyRequest): Reply;
}

/**
 * The video of the path's `:id` as the caller may see it, handed to `handle`; 404 5000 when there is
 * none or its privacy keeps it from the caller (another member's private video is answered as missing).
 */
export function withVideo(ctx: VimeoContext, req: FastifyRequest, handle: (member: Member, video: VimeoVideo) => Reply): Reply {
  const member = ctx.authenticate(req);
  if (isReply(member)) return member;
  const video = ctx.store.videos.get((req.params as { id: string }).id);
  if (!video || !canView(video, member.id)) return videoNotFound();
  return handle(member, video);
}

const MAX_PER_PAGE = 100;

/** Vimeo's paged list: `page` (from 1) and `per_page` (up to 100), with the paging links. */
export function page(req: FastifyRequest, path: string, items: unknown[]): Reply {
  const q = queryOf(req);
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number(q.per_page) || 25));
  const number = Math.max(1, Math.floor(Number(q.page) || 1));
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number) => {
    const params = new URLSearchParams({ ...(q as Record<string, string>), page: String(n), per_page: String(perPage) });
    return `${path}?${params}`;
  };
  return {
    status: 200,
    body: {
      total: items.length,
      page: number,
      per_page: perPage,
      paging: { next: number < last ? link(number + 1) : null, previous: number > 1 ? link(number - 1) : null, first: link(1), last: link(last) },
      data: items.slice((number - 1) * perPage, number * perPage),
    },
  };
}
