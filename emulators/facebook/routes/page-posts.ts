// Publishing on a Facebook Page with its Page token: POST /{page-id}/photos (the bytes as multipart
// `source`, or a `url` it downloads; `published=false` keeps a photo for a post), POST
// /{page-id}/feed (message, link, attached_media[n]={"media_fbid":…}), GET /{page-id}/feed, GET
// /{post-id}?fields=permalink_url, and the comments edge of a post. Every answer carries X-Page-Usage
// and X-Business-Use-Case-Usage.
import { createHash } from 'node:crypto';
import { multipartBody, type Reply } from '../../shared/http.ts';
import { sniff } from '../../shared/sniff.ts';
import { graphError, nonexistingField, unsupportedGet } from '../errors.ts';
import { fieldList, MissingField, parseFields, pick, type FieldTree } from '../fields.ts';
import * as fbe from '../pages/errors.ts';
import type { PagePost, PagesStore } from '../pages/store.ts';
import type { FbPage } from '../store.ts';
import { authenticate, isReply, type FbRequest, type FbRoute, type FbWorld } from '../world.ts';

/** Calls per Page per hour that make call_count 100% (emulator's choice; Meta's BUC share is opaque). */
const CALLS_PER_HOUR = 4800;

export function pagePostRoutes(world: FbWorld, pages: PagesStore): FbRoute[] {
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
    pages.calls.push({ method: req.method, path, params: paramsOf(req) });
    if (now() < pages.throttledUntil) return withUsage(pageId, fbe.pageThrottled());
    if (write && pages.blockNext > 0) {
      pages.blockNext -= 1;
      return withUsage(pageId, fbe.blocked());
    }
    return withUsage(pageId, await body(page));
  };

  const uploadPhoto = async (req: FbRequest, page: FbPage): Promise<Reply> => {
    let params = { ...req.query };
    let bytes: Buffer | undefined;
    if (/^multipart\/form-data/i.test(req.contentType ?? '')) {
      const form = await multipartBody(req.raw, req.contentType!);
      if (!form) return fbe.badPhoto();
      params = { access_token: req.query.access_token };
      for (const [name, value] of form) {
        if (typeof value === 'string') params[name] = value;
        else if (name === 'source') bytes = Buffer.from(await value.arrayBuffer());
      }
    } else if (params.url) {
      const got = await world.downloadBytes(params.url);
      if (!got) return graphError({ message: '(#100) url should represent a valid URL', code: 100 });
      bytes = got;
    }
    if (!bytes?.length) return fbe.badPhoto();
    const type = sniff(bytes)?.mime;
    if (!type || !['image/jpeg', 'image/png', 'image/gif'].includes(type)) return fbe.invalidImage();
    const published = params.published !== 'false';
    const id = pages.nextId();
    pages.photos.set(id, { id, pageId: page.id, published, contentType: type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), ...(params.caption ? { caption: params.caption } : {}) });
    if (!published) return { status: 200, body: { id } };
    const post = addPost(page, { ...(params.caption ? { message: params.caption } : {}) }, [id], paramsOf({ ...req, query: params }));
    return { status: 200, body: { id, post_id: post.id } };
  };

  const addPost = (page: FbPage, text: { message?: string; link?: string }, photoIds: string[], params: Record<string, string>): PagePost => {
    const post: PagePost = { id: `${page.id}_${pages.nextId()}`, pageId: page.id, ...text, photoIds, createdAt: now(), params };
    pages.posts.set(post.id, post);
    for (const id of photoIds) pages.photos.get(id)!.postId = post.id;
    return post;
  };

  const createPost = (req: FbRequest, page: FbPage): Reply => {
    const q = req.query;
    const attached: string[] = [];
    for (let i = 0; q[`attached_media[${i}]`] !== undefined; i++) {
      const fbid = parseJson<{ media_fbid?: string }>(q[`attached_media[${i}]`]!)?.media_fbid ?? '';
      const photo = pages.photos.get(fbid);
      if (!photo || photo.pageId !== page.id || photo.published || photo.postId) return fbe.badAttachedMedia(fbid);
      attached.push(fbid);
    }
    if (!q.message && !q.link && !attached.length) return fbe.missingMessage();
    const post = addPost(page, { ...(q.message ? { message: q.message } : {}), ...(q.link ? { link: q.link } : {}) }, attached, paramsOf(req));
    return { status: 200, body: { id: post.id } };
  };

  const renderPost = (post: PagePost, fields: FieldTree) => {
    const page = world.store.pages.get(post.pageId)!;
    return pick(fields, {
      id: () => post.id,
      message: () => post.message,
      created_time: () => new Date(post.createdAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
      permalink_url: () => `https://www.facebook.com/${page.username ?? page.id}/posts/pfbid0${Buffer.from(post.id).toString('base64url')}`,
    }, 'Post');
  };

  const render = (req: FbRequest, body: (fields: FieldTree) => unknown): Reply => {
    const fields = req.query.fields === undefined ? fieldList('id', 'message', 'created_time') : parseFields(req.query.fields);
    if (!fields) return graphError({ message: `Syntax error in the fields parameter: "${req.query.fields}"`, code: 2500 });
    try {
      return { status: 200, body: body(fields) };
    } catch (error) {
      if (error instanceof MissingField) return nonexistingField(error.field, error.nodeType);
      throw error;
    }
  };

  world.nodes.push((req) => {
    // Any valid token reads a Page's public fields (a mention's Page need not be the caller's).
    const other = world.store.pages.get(req.params.id!);
    const asked = req.query.fields === undefined ? undefined : parseFields(req.query.fields);
    if (other && asked && [...asked.keys()].every((f) => f === 'id' || f === 'name')) {
      const info = authenticate(world, req);
      if (isReply(info)) return info;
      return { status: 200, body: pick(asked, { id: () => other.id, name: () => other.name }, 'Page') };
    }
    const post = pages.posts.get(req.params.id!);
    if (!post) return undefined;
    const page = asPage(req, post.pageId, false);
    if (refused(page)) return page;
    return withUsage(post.pageId, render(req, (fields) => renderPost(post, fields)));
  });

  world.commentEdges.push((req, write) => {
    const post = pages.posts.get(req.params.id!);
    if (!post) return undefined;
    return onPage(post.pageId, req, `/${post.id}/comments`, write, (page) => {
      if (!write) {
        const list = pages.comments.filter((c) => c.postId === post.id);
        return render(req, (fields) => ({ data: list.map((c) => pick(fields, { id: () => c.id, message: () => c.message, from: () => ({ id: c.fromId, name: page.name }), created_time: () => new Date(c.createdAt).toISOString().replace(/\.\d{3}Z$/, '+0000') }, 'Comment')) }));
      }
      if (!req.query.message) return fbe.missingMessage();
      const comment = { id: `${post.id.split('_')[1]}_${pages.nextId()}`, postId: post.id, fromId: page.id, message: req.query.message, createdAt: now() };
      pages.comments.push(comment);
      return { status: 200, body: { id: comment.id } };
    })();
  });

  return [
    { method: 'POST', url: '/:id/photos', versioned: true, handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/photos`, true, (page) => uploadPhoto(req, page))() },
    { method: 'POST', url: '/:id/feed', versioned: true, handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/feed`, true, (page) => createPost(req, page))() },
    {
      method: 'GET',
      url: '/:id/feed',
      versioned: true,
      handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/feed`, false, (page) => {
        const list = [...pages.posts.values()].filter((p) => p.pageId === page.id).sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
        const limit = Math.min(Math.max(Number(req.query.limit ?? 25) || 25, 1), 100);
        return render(req, (fields) => ({ data: list.slice(0, limit).map((p) => renderPost(p, fields)) }));
      })(),
    },
  ];
}

function paramsOf(req: Pick<FbRequest, 'query'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) if (value !== undefined && name !== 'access_token' && name !== 'appsecret_proof') out[name] = value;
  return out;
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

const refused = <T extends object>(value: T | Reply): value is Reply => 'status' in value && 'body' in value;
