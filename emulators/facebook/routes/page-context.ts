// What the Page publishing routes share: the Page-token check, the usage headers every answer
// carries (X-Page-Usage, X-Business-Use-Case-Usage), the #368 and #32 switches, and how a post is
// stored and rendered.
import type { Reply } from '../../shared/http.ts';
import { unsupportedGet } from '../errors/graph.ts';
import { fieldList, pick, renderFields, type FieldTree } from '../validate/fields.ts';
import type { FbPage } from '../state/accounts.ts';
import { authenticate, isReply, type FbRequest, type FbWorld } from './context.ts';
import * as fbe from '../errors/pages.ts';
import type { PagePost, PagesStore } from '../state/pages.ts';

/** Calls per Page per hour that make call_count 100% (emulator's choice; Meta's BUC share is opaque). */
const CALLS_PER_HOUR = 4800;

export type PageContext = ReturnType<typeof pageContext>;

export function pageContext(world: FbWorld, pages: PagesStore) {
  const calls = new Map<string, number[]>();
  const now = () => world.clock.now();

  const withUsage = (pageId: string, reply: Reply): Reply => {
    const recent = (calls.get(pageId) ?? []).filter((t) => t > now() - 3_600_000);
    recent.push(now());
    calls.set(pageId, recent);
    const regain = Math.max(0, Math.ceil((pages.throttledUntil - now()) / 60_000));
    const pct = regain ? 100 : Math.min(100, Math.round((100 * recent.length) / CALLS_PER_HOUR));
    return {
      ...reply,
      headers: {
        ...reply.headers,
        'x-page-usage': JSON.stringify({ call_count: pct, total_cputime: pct, total_time: pct }),
        'x-business-use-case-usage': JSON.stringify({ [pageId]: [{ type: 'pages', call_count: pct, total_cputime: pct, total_time: pct, estimated_time_to_regain_access: regain }] }),
      },
    };
  };

  /** The Page, when the token is that Page's with pages_manage_posts; else Graph's refusal. */
  const asPage = (req: FbRequest, pageId: string, write: boolean): FbPage | Reply => {
    const info = authenticate(world, req);
    if (isReply(info)) return info;
    const page = world.store.pages.get(pageId);
    if (!page) return unsupportedGet(pageId);
    if (info.kind !== 'page' || info.pageId !== pageId) return write ? fbe.needsPageToken() : unsupportedGet(pageId);
    const check = world.oauth.checkAccess(req.token!);
    if (write && check.ok && !check.scopes.includes('pages_manage_posts')) return fbe.needsPageToken();
    return page;
  };

  const onPage = (pageId: string, req: FbRequest, path: string, write: boolean, body: (page: FbPage) => Reply | Promise<Reply>) => async (): Promise<Reply> => {
    const page = asPage(req, pageId, write);
    if (refused(page)) return page;
    pages.calls.push({ method: req.method, path, params: paramsOf(req), ...(req.headers?.host ? { host: req.headers.host } : {}) });
    if (now() < pages.throttledUntil) return withUsage(pageId, fbe.pageThrottled());
    if (write && pages.blockNext > 0) {
      pages.blockNext -= 1;
      return withUsage(pageId, fbe.blocked());
    }
    return withUsage(pageId, await body(page));
  };

  const addPost = (page: FbPage, text: { message?: string; link?: string }, photoIds: string[], params: Record<string, string>, as: { id?: string; kind?: PagePost['kind'] } = {}): PagePost => {
    const post: PagePost = { id: as.id ?? `${page.id}_${pages.nextId()}`, pageId: page.id, kind: as.kind ?? 'post', ...text, photoIds, createdAt: now(), params };
    pages.posts.set(post.id, post);
    for (const id of photoIds) pages.photos.get(id)!.postId = post.id;
    return post;
  };

  /** Videos whose processing ended become posts (feed videos and Reels), or fail. */
  const settle = () => {
    for (const video of pages.videos.values()) {
      if (!video.finished || video.postId || video.failed || video.kind === 'story' || now() < (video.readyAt ?? Infinity)) continue;
      const page = world.store.pages.get(video.pageId)!;
      const message = video.params.description;
      video.postId = addPost(page, message ? { message } : {}, [], video.params, { id: video.id, kind: video.kind === 'reel' ? 'reel' : 'video' }).id;
    }
  };

  const renderPost = (post: PagePost, fields: FieldTree) => {
    const page = world.store.pages.get(post.pageId)!;
    return pick(fields, {
      id: () => post.id,
      message: () => post.message,
      created_time: () => new Date(post.createdAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
      permalink_url: () => permalinkOf(post, page),
      status_type: () => statusTypeOf(post),
      attachments: () => attachmentsOf(post),
      // `reactions.summary(total_count).limit(0)`: the modifiers are ignored, the summary always given.
      reactions: () => {
        const stats = pages.postStats.get(post.id);
        return { data: [], summary: { total_count: Object.values(stats?.reactions ?? {}).reduce((a, b) => a + b, 0), viewer_reaction: 'NONE' } };
      },
      comments: () => ({ data: [], summary: { order: 'chronological', total_count: pages.comments.filter((c) => c.postId === post.id).length, can_comment: true } }),
      // Graph leaves `shares` out of a post nobody shared.
      shares: () => {
        const shares = pages.postStats.get(post.id)?.shares ?? 0;
        return shares ? { count: shares } : undefined;
      },
    }, 'Post');
  };

  const render = (req: FbRequest, body: (fields: FieldTree) => unknown): Reply => renderFields(req.query, fieldList('id', 'message', 'created_time'), body);

  return { now, withUsage, asPage, onPage, addPost, renderPost, render, settle };
}

export function paramsOf(req: Pick<FbRequest, 'query'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) if (value !== undefined && name !== 'access_token' && name !== 'appsecret_proof') out[name] = value;
  return out;
}

export const refused = <T extends object>(value: T | Reply): value is Reply => 'status' in value && 'body' in value;

/** status_type as Graph names a Page's own posts. */
function statusTypeOf(post: PagePost): string {
  if (post.kind === 'video' || post.kind === 'reel') return 'added_video';
  if (post.photoIds.length) return 'added_photos';
  return post.link ? 'shared_story' : 'mobile_status_update';
}

/** attachments{media_type,subattachments}: an album's photos as subattachments; undefined for a text post. */
function attachmentsOf(post: PagePost): unknown {
  if (post.kind === 'video' || post.kind === 'reel') return { data: [{ media_type: 'video', type: post.kind === 'reel' ? 'video_inline' : 'video_autoplay' }] };
  if (post.photoIds.length > 1) {
    return { data: [{ media_type: 'album', type: 'album', subattachments: { data: post.photoIds.map((id) => ({ media_type: 'photo', type: 'photo', target: { id } })) } }] };
  }
  if (post.photoIds.length === 1) return { data: [{ media_type: 'photo', type: 'photo', target: { id: post.photoIds[0] } }] };
  return post.link ? { data: [{ media_type: 'link', type: 'share', url: post.link }] } : undefined;
}

/** Graph's permalink_url (opaque at Meta: these shapes are the emulator's). */
function permalinkOf(post: PagePost, page: FbPage): string {
  const name = page.username ?? page.id;
  if (post.kind === 'reel') return `https://www.facebook.com/reel/${post.id}`;
  if (post.kind === 'video') return `https://www.facebook.com/${name}/videos/${post.id}`;
  if (post.kind === 'story') return `https://www.facebook.com/stories/${page.id}/${post.id}`;
  return `https://www.facebook.com/${name}/posts/pfbid0${Buffer.from(post.id).toString('base64url')}`;
}
