// Publishing on a Facebook Page with its Page token: POST /{page-id}/photos (the bytes as multipart
// `source`, or a `url` it downloads; `published=false` keeps a photo for a post), POST
// /{page-id}/feed (message, link, attached_media[n]={"media_fbid":…}), GET /{page-id}/feed, GET
// /{post-id}?fields=permalink_url (a post's comments: page-engagement.ts). Every answer carries
// X-Page-Usage and X-Business-Use-Case-Usage.
import { createHash } from 'node:crypto';
import { multipartBody, type Reply } from '../../shared/http.ts';
import { sniff } from '../../shared/sniff.ts';
import { graphError } from '../errors/graph.ts';
import { parseFields, pick } from '../validate/fields.ts';
import { paramsOf, refused, type PageContext } from './page-context.ts';
import * as fbe from '../errors/pages.ts';
import type { PagesStore } from '../state/pages.ts';
import type { FbPage } from '../state/accounts.ts';
import { authenticate, isReply, type FbRequest, type FbRoute, type FbWorld } from './context.ts';

export function pagePostRoutes(world: FbWorld, pages: PagesStore, ctx: PageContext): FbRoute[] {
  const { withUsage, asPage, onPage, addPost, renderPost, render, settle } = ctx;
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

  world.nodes.push((req) => {
    // A Page's public fields: its own token, or a user token with a role on it, reads them; another
    // Page (a mention's) only with the app's "Page Public Metadata Access" feature, else #10.
    const other = world.store.pages.get(req.params.id!);
    const asked = req.query.fields === undefined ? undefined : parseFields(req.query.fields);
    if (other && asked && [...asked.keys()].every((f) => f === 'id' || f === 'name')) {
      const info = authenticate(world, req);
      if (isReply(info)) return info;
      const manages = info.kind === 'page' ? info.pageId === other.id : world.store.users.get(info.userId)?.pageIds.includes(other.id);
      if (!manages && !pages.publicMetadataAccess) return fbe.needsPublicMetadataAccess();
      return { status: 200, body: pick(asked, { id: () => other.id, name: () => other.name }, 'Page') };
    }
    settle();
    const post = pages.posts.get(req.params.id!);
    if (!post || pages.videos.has(post.id)) return undefined;
    const page = asPage(req, post.pageId, false);
    if (refused(page)) return page;
    return withUsage(post.pageId, render(req, (fields) => renderPost(post, fields)));
  });

  return [
    { method: 'POST', url: '/:id/photos', versioned: true, handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/photos`, true, (page) => uploadPhoto(req, page))() },
    { method: 'POST', url: '/:id/feed', versioned: true, handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/feed`, true, (page) => createPost(req, page))() },
    {
      method: 'GET',
      url: '/:id/feed',
      versioned: true,
      handler: (req) => onPage(req.params.id!, req, `/${req.params.id}/feed`, false, (page) => {
        settle();
        const list = [...pages.posts.values()].filter((p) => p.pageId === page.id && p.kind !== 'story').sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
        const limit = Math.min(Math.max(Number(req.query.limit ?? 25) || 25, 1), 100);
        return render(req, (fields) => ({ data: list.slice(0, limit).map((p) => renderPost(p, fields)) }));
      })(),
    },
  ];
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
