// The publishing routes of the Vimeo emulator (API 3.4): POST /me/videos with the tus approach (the
// body validated as vimeo/openapi describes it, the member's upload quota checked), a video's status
// (GET /videos/{id}, field filtering as Vimeo does it), the member's videos (GET /me/videos, newest
// first), deleting a video (DELETE /videos/{id}), and a video's comments one tier deep (POST and GET
// /videos/{id}/comments, and …/comments/{cid}/replies). The tus endpoint itself is in tus.ts.
import type { FastifyRequest } from 'fastify';
import { isPlainObject, jsonBody, type Reply } from '../shared/http.ts';
import {
  commentNotFound, commentsDisabled, commentTextMissing, invalidParameters, invalidUploadType, legacyType, malformedBody, missingScope, quotaReached, videoNotFound,
} from './errors.ts';
import { queryOf } from './query.ts';
import { commentJson, pickFields, videoJson, type VideoStore, type VimeoComment, type VimeoVideo } from './videos.ts';

export const VIEW_VALUES = ['anybody', 'contacts', 'disable', 'nobody', 'password', 'unlisted', 'users'];
export const EMBED_VALUES = ['private', 'public', 'whitelist'];
export const COMMENT_VALUES = ['anybody', 'contacts', 'nobody'];
const APPROACHES = ['post', 'pull', 'streaming', 'tus'];
/** Vimeo Basic members cannot choose these views (api.yaml, privacy.view). */
const PAID_VIEWS = ['disable', 'unlisted'];
const MAX_PER_PAGE = 100;

export interface PublishingMember {
  id: string;
  /** 'basic' (Vimeo Basic), or a paid plan ('plus', 'pro', ...). */
  account: string;
  /** The scopes the token was granted. */
  scopes: string[];
}

export interface PublishingContext {
  store: VideoStore;
  origin(): string;
  /** The member the bearer token stands for, or the error reply. */
  authenticate(req: FastifyRequest): PublishingMember | Reply;
  /** The member's public user object (a video's or a comment's `user`); null for a member who left Vimeo. */
  userOf(id: string): Record<string, unknown> | null;
}

export interface PublishingRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  handler(req: FastifyRequest): Reply;
}

const isReply = (value: object): value is Reply => 'status' in value;
const query = queryOf;

export function publishingRoutes(ctx: PublishingContext): PublishingRoute[] {
  const { store } = ctx;
  const asOwner = (req: FastifyRequest, handle: (member: PublishingMember, video: VimeoVideo) => Reply): Reply => {
    const member = ctx.authenticate(req);
    if (isReply(member)) return member;
    const video = store.videos.get((req.params as { id: string }).id);
    // Another member's video is answered as missing: the emulator's videos are all private to their owner.
    if (!video || video.ownerId !== member.id) return videoNotFound();
    return handle(member, video);
  };
  const json = (video: VimeoVideo) => videoJson(video, ctx.origin(), ctx.userOf(video.ownerId));
  const commentOut = (video: VimeoVideo, c: VimeoComment) => commentJson(c, ctx.userOf(c.userId), video.comments.filter((r) => r.parentId === c.id).length);
  /** Newest first unless `direction=asc`, paged. */
  const listed = (req: FastifyRequest, path: string, video: VimeoVideo, comments: VimeoComment[]) => {
    const out = comments.map((c) => commentOut(video, c));
    if (query(req).direction !== 'asc') out.reverse();
    return page(req, path, out);
  };
  const commentBody = (req: FastifyRequest, video: VimeoVideo): string | Reply => {
    const body = jsonBody(req.body);
    const text = isPlainObject(body) && typeof body.text === 'string' ? body.text : '';
    if (!text.trim()) return commentTextMissing();
    if (video.privacy.comments === 'nobody') return commentsDisabled();
    return text;
  };
  const parentOf = (req: FastifyRequest, video: VimeoVideo) => store.topLevel(video, (req.params as { commentId: string }).commentId);

  return [
    {
      method: 'POST', url: '/me/videos', handler: (req) => {
        const member = ctx.authenticate(req);
        if (isReply(member)) return member;
        // api.yaml: upload_video needs the `upload` scope, create_comment(_reply) `interact`, edit_video `edit`.
        if (!member.scopes.includes('upload')) return missingScope('upload');
        const body = jsonBody(req.body);
        if (!isPlainObject(body)) return malformedBody();
        const checked = checkCreation(body, member);
        if (isReply(checked)) return checked;
        const quota = store.quotaOf(member.id);
        if (checked.size > quota.free) return quotaReached(checked.size, quota.free);
        const video = store.create({ ownerId: member.id, ...checked });
        return { status: 201, body: json(video), headers: { location: `/videos/${video.id}` } };
      },
    },
    {
      method: 'GET', url: '/videos/:id', handler: (req) => asOwner(req, (_member, video) => {
        store.observe(video);
        return { status: 200, body: pickFields(json(video), query(req).fields) };
      }),
    },
    {
      method: 'GET', url: '/me/videos', handler: (req) => {
        const member = ctx.authenticate(req);
        if (isReply(member)) return member;
        const mine = [...store.videos.values()].filter((v) => v.ownerId === member.id).reverse();
        return page(req, '/me/videos', mine.map((v) => pickFields(json(v), query(req).fields)));
      },
    },
    {
      // Edit a video (api.yaml edit_video): needs the `edit` scope; the fields Crier and the client set.
      method: 'PATCH', url: '/videos/:id', handler: (req) => asOwner(req, (member, video) => {
        if (!member.scopes.includes('edit')) return missingScope('edit');
        const body = jsonBody(req.body);
        if (!isPlainObject(body)) return malformedBody();
        const edit = checkEdit(body, member, video);
        if (isReply(edit)) return edit;
        Object.assign(video, { name: edit.name, description: edit.description, privacy: edit.privacy });
        return { status: 200, body: pickFields(json(video), query(req).fields) };
      }),
    },
    {
      method: 'DELETE', url: '/videos/:id', handler: (req) => asOwner(req, (member, video) => {
        if (!member.scopes.includes('delete')) return missingScope('delete');
        store.remove(video);
        return { status: 204 };
      }),
    },
    {
      method: 'POST', url: '/videos/:id/comments', handler: (req) => asOwner(req, (member, video) => {
        if (!member.scopes.includes('interact')) return missingScope('interact');
        const text = commentBody(req, video);
        if (typeof text !== 'string') return text;
        return { status: 201, body: commentOut(video, store.addComment(video, member.id, text)) };
      }),
    },
    {
      method: 'GET', url: '/videos/:id/comments', handler: (req) => asOwner(req, (_member, video) =>
        listed(req, `/videos/${video.id}/comments`, video, video.comments.filter((c) => c.parentId === null))),
    },
    {
      method: 'POST', url: '/videos/:id/comments/:commentId/replies', handler: (req) => asOwner(req, (member, video) => {
        if (!member.scopes.includes('interact')) return missingScope('interact');
        const parent = parentOf(req, video);
        if (!parent) return commentNotFound();
        const text = commentBody(req, video);
        if (typeof text !== 'string') return text;
        return { status: 201, body: commentOut(video, store.addComment(video, member.id, text, parent.id)) };
      }),
    },
    {
      method: 'GET', url: '/videos/:id/comments/:commentId/replies', handler: (req) => asOwner(req, (_member, video) => {
        const parent = parentOf(req, video);
        if (!parent) return commentNotFound();
        return listed(req, `/videos/${video.id}/comments/${parent.id}/replies`, video, video.comments.filter((c) => c.parentId === parent.id));
      }),
    },
  ];
}

/** What POST /me/videos asks for, or the 400 Vimeo answers. */
function checkCreation(body: Record<string, unknown>, member: PublishingMember):
  Reply | { name: string; description: string | null; view: string; embed: string; comments: string; size: number } {
  if (body.type !== undefined && body.upload === undefined) return legacyType();
  if (!isPlainObject(body.upload)) return invalidParameters('upload', 'is required');
  const approach = String(body.upload.approach ?? '');
  if (!APPROACHES.includes(approach)) return invalidUploadType(approach);
  // The emulator takes bytes by tus only; the other approaches are Vimeo's, not modelled.
  if (approach !== 'tus') return invalidUploadType(approach);
  const size = Number(body.upload.size);
  if (body.upload.size === undefined || body.upload.size === '' || !Number.isSafeInteger(size) || size <= 0) {
    return invalidParameters('upload.size', 'must be the size of the video in bytes, a whole number above 0');
  }
  if (body.name !== undefined && typeof body.name !== 'string') return invalidParameters('name', 'must be a string');
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') return invalidParameters('description', 'must be a string');
  const privacy = body.privacy === undefined ? {} : body.privacy;
  if (!isPlainObject(privacy)) return invalidParameters('privacy', 'must be an object');
  const view = privacy.view ?? 'anybody';
  const embed = privacy.embed ?? 'public';
  const comments = privacy.comments ?? 'anybody';
  if (typeof view !== 'string' || !VIEW_VALUES.includes(view)) return invalidParameters('privacy.view', `must be one of ${VIEW_VALUES.join(', ')}`);
  if (typeof embed !== 'string' || !EMBED_VALUES.includes(embed)) return invalidParameters('privacy.embed', `must be one of ${EMBED_VALUES.join(', ')}`);
  if (typeof comments !== 'string' || !COMMENT_VALUES.includes(comments)) return invalidParameters('privacy.comments', `must be one of ${COMMENT_VALUES.join(', ')}`);
  if (view === 'password' && (typeof body.password !== 'string' || !body.password)) return invalidParameters('password', 'is required when privacy.view is password');
  if (member.account === 'basic' && PAID_VIEWS.includes(view)) return invalidParameters('privacy.view', `cannot be ${view} for a Vimeo Basic member`);
  const name = typeof body.name === 'string' && body.name.trim() ? body.name : 'Untitled';
  const description = typeof body.description === 'string' ? body.description : null;
  return { name, description, view, embed, comments, size };
}

const LICENSES = ['by', 'by-nc', 'by-nc-nd', 'by-nc-sa', 'by-nd', 'by-sa', 'cc0'];

/**
 * What PATCH /videos/{id} changes, or the 400 Vimeo answers (api.yaml's edit_video body: name,
 * description, privacy.{view, embed, comments, download, add}, password, license...). Properties the
 * emulator does not keep (embed, license, locale, content_rating, review_page, spatial) are checked
 * where api.yaml gives them a type or an enum, then ignored.
 */
function checkEdit(body: Record<string, unknown>, member: PublishingMember, video: VimeoVideo):
  Reply | { name: string; description: string | null; privacy: VimeoVideo['privacy'] } {
  if (body.name !== undefined && (typeof body.name !== 'string' || !body.name.trim())) return invalidParameters('name', 'must be a non-empty string');
  if (body.description !== undefined && body.description !== null && typeof body.description !== 'string') return invalidParameters('description', 'must be a string');
  if (body.license !== undefined && (typeof body.license !== 'string' || !LICENSES.includes(body.license))) return invalidParameters('license', `must be one of ${LICENSES.join(', ')}`);
  const privacy = body.privacy === undefined ? {} : body.privacy;
  if (!isPlainObject(privacy)) return invalidParameters('privacy', 'must be an object');
  const { view = video.privacy.view, embed = video.privacy.embed, comments = video.privacy.comments } = privacy;
  if (typeof view !== 'string' || !VIEW_VALUES.includes(view)) return invalidParameters('privacy.view', `must be one of ${VIEW_VALUES.join(', ')}`);
  if (typeof embed !== 'string' || !EMBED_VALUES.includes(embed)) return invalidParameters('privacy.embed', `must be one of ${EMBED_VALUES.join(', ')}`);
  if (typeof comments !== 'string' || !COMMENT_VALUES.includes(comments)) return invalidParameters('privacy.comments', `must be one of ${COMMENT_VALUES.join(', ')}`);
  for (const flag of ['download', 'add'] as const) {
    if (privacy[flag] !== undefined && typeof privacy[flag] !== 'boolean') return invalidParameters(`privacy.${flag}`, 'must be a boolean');
  }
  if (privacy.view === 'password' && (typeof body.password !== 'string' || !body.password)) return invalidParameters('password', 'is required when privacy.view is password');
  if (member.account === 'basic' && privacy.view !== undefined && PAID_VIEWS.includes(view)) return invalidParameters('privacy.view', `cannot be ${view} for a Vimeo Basic member`);
  return {
    name: typeof body.name === 'string' ? body.name : video.name,
    description: body.description === undefined ? video.description : (body.description as string | null),
    privacy: { view, embed, comments },
  };
}

/** Vimeo's paged list: `page` (from 1) and `per_page` (up to 100), with the paging links. */
function page(req: FastifyRequest, path: string, items: unknown[]): Reply {
  const q = query(req);
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
