// Instagram content publishing on graph.facebook.com: POST /{ig-user-id}/media (a container: an
// image, a Reel, a Story, a carousel item or the carousel), GET /{container-id}?fields=status_code,
// status (processing on the emulator's clock), POST /{ig-user-id}/media_publish creation_id, GET
// /{ig-user-id}/content_publishing_limit, the account's media and stories, a media's permalink, and
// its comments edge. Every answer carries the usage headers Meta sends (X-App-Usage,
// X-Business-Use-Case-Usage).
import type { Reply } from '../../shared/http.ts';
import { graphError, unsupportedGet } from '../errors/graph.ts';
import { fieldList, pick, renderFields, type FieldTree } from '../validate/fields.ts';
import * as ig from '../errors/instagram.ts';
import { validateContainer } from '../validate/instagram-container.ts';
import { DAY_MS, type IgContainer, type IgMedia } from '../state/instagram.ts';
import type { IgAccount } from '../state/accounts.ts';
import { listMediaComments } from './instagram-comments.ts';
import { graphTime, listBody, pageOf } from '../paging.ts';
import { instagramContext } from './instagram-context.ts';
import type { FbRequest, FbRoute, FbWorld } from './context.ts';

export function instagramMediaRoutes(world: FbWorld): FbRoute[] {
  const store = world.instagram;
  const { withUsage, access } = instagramContext(world);

  /** Runs `body` for the account the route names, with usage headers and the throttle. */
  const onAccount = (post: boolean, edge: string, body: (req: FbRequest, account: IgAccount) => Reply | Promise<Reply>) => async (req: FbRequest): Promise<Reply> => {
    const account = access(req, req.params.id!, post);
    if (refused(account)) return account;
    store.calls.push({ method: req.method, path: `/${req.params.id}/${edge}`, params: paramsOf(req) });
    if (store.now() < store.throttledUntil) return withUsage(account.id, ig.throttled());
    return withUsage(account.id, await body(req, account));
  };

  const createContainer = async (req: FbRequest, account: IgAccount): Promise<Reply> => {
    const params = paramsOf(req);
    const checked = validateContainer(params, (id) => store.containers.get(id), account.id);
    if (refused(checked)) return checked;
    const urls = [params.image_url, params.video_url, params.cover_url].filter((u): u is string => Boolean(u));
    const container: IgContainer = {
      id: store.nextId('1790'),
      igUserId: account.id,
      kind: checked.kind,
      carouselItem: params.is_carousel_item === 'true',
      params,
      children: checked.children,
      createdAt: store.now(),
      readyAt: store.now() + (params.video_url ? store.processingMs.video : store.processingMs.image),
      fetching: false,
      fetched: [],
      expired: false,
    };
    const failure = store.failNext.shift();
    if (failure) container.error = failure;
    if (params.image_url && !params.video_url) {
      // An image is downloaded while the request waits: a URL Meta cannot fetch is refused at once.
      const got = await world.download(params.image_url);
      if ('failed' in got) return ig.downloadFailed();
      if (got.contentType !== 'image/jpeg' && got.contentType !== 'image/png') return ig.unsupportedImage();
      container.fetched.push(got);
      urls.splice(urls.indexOf(params.image_url), 1);
    }
    store.containers.set(container.id, container);
    if (urls.length) void downloadLater(container, urls);
    return { status: 200, body: { id: container.id } };
  };

  /** Videos (and a Reel's cover) are downloaded after the answer: failures show as status ERROR. */
  const downloadLater = async (container: IgContainer, urls: string[]) => {
    container.fetching = true;
    for (const url of urls) {
      const got = await world.download(url);
      if ('failed' in got) {
        container.error ??= ig.processingStatus.download;
        break;
      }
      const isCover = url === container.params.cover_url && url !== container.params.video_url;
      const expected = isCover ? got.contentType === 'image/jpeg' || got.contentType === 'image/png' : got.contentType === 'video/mp4' || got.contentType === 'video/quicktime';
      if (!expected) container.error ??= ig.processingStatus.format;
      container.fetched.push(got);
    }
    container.fetching = false;
    container.readyAt = Math.max(container.readyAt, store.now() + (container.params.video_url ? store.processingMs.video : 0));
  };

  const publish = (req: FbRequest, account: IgAccount): Reply => {
    const id = req.query.creation_id;
    if (!id) return ig.invalidParameter('The parameter creation_id is required.');
    const container = store.containers.get(id);
    if (!container || container.igUserId !== account.id || container.carouselItem) return ig.invalidParameter(`Invalid creation_id: ${id}`, 2207006);
    const status = store.statusOf(container);
    if (status === 'PUBLISHED') return ig.alreadyPublished();
    if (status === 'EXPIRED') return ig.expiredContainer();
    if (status === 'ERROR') return ig.containerFailed();
    if (status === 'IN_PROGRESS') return ig.notReady();
    if (store.usage(account.id) >= store.quotaTotal) return ig.publishLimit();
    const media = toMedia(container, account);
    store.media.set(media.id, media);
    container.publishedMediaId = media.id;
    return { status: 200, body: { id: media.id } };
  };

  const toMedia = (c: IgContainer, account: IgAccount): IgMedia => {
    const children = c.children.map((cid) => store.containers.get(cid)!);
    const video = Boolean(c.params.video_url);
    return {
      id: store.nextId('1800'),
      igUserId: account.id,
      containerId: c.id,
      mediaType: c.kind === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : video ? 'VIDEO' : 'IMAGE',
      productType: c.kind === 'STORIES' ? 'STORY' : c.kind === 'REELS' ? 'REELS' : 'FEED',
      ...(c.kind !== 'STORIES' && c.params.caption !== undefined ? { caption: c.params.caption } : {}),
      shortcode: Buffer.from(c.id).toString('base64url').slice(0, 11),
      timestamp: store.now(),
      options: c.params,
      children: children.map((child) => ({ id: child.id, kind: child.kind, options: child.params, fetched: child.fetched })),
      fetched: c.fetched,
    };
  };

  const renderMedia = (m: IgMedia, fields: FieldTree, account: IgAccount) => pick(fields, {
    id: () => m.id,
    caption: () => m.caption,
    media_type: () => m.mediaType,
    media_product_type: () => m.productType,
    shortcode: () => m.shortcode,
    permalink: () => `https://www.instagram.com/${m.productType === 'REELS' ? 'reel' : m.productType === 'STORY' ? `stories/${account.username}` : 'p'}/${m.productType === 'STORY' ? m.id : m.shortcode}/`,
    timestamp: () => graphTime(m.timestamp),
    username: () => account.username,
    comments_count: () => store.comments.filter((c) => c.mediaId === m.id).length,
    like_count: () => store.mediaInsights.get(m.id)?.likes ?? 0,
    children: (sub) => (m.mediaType === 'CAROUSEL_ALBUM'
      ? { data: m.children.map((child) => pick(sub ?? fieldList('id'), { id: () => child.id, media_type: () => (child.options.video_url ? 'VIDEO' : 'IMAGE') }, 'IGMedia')) }
      : undefined),
  }, 'IGMedia');

  /** Parses fields and renders; an unknown field is Graph's #100. */
  const render = (req: FbRequest, defaults: FieldTree, body: (fields: FieldTree) => unknown): Reply => renderFields(req.query, defaults, body);

  const listMedia = (stories: boolean) => (req: FbRequest, account: IgAccount): Reply => {
    const page = pageOf(req, store.mediaOf(account.id, stories), `/${account.id}/${stories ? 'stories' : 'media'}`, { default: 25, max: 100 });
    return render(req, fieldList('id'), (fields) => listBody(page.items.map((m) => renderMedia(m, fields, account)), page));
  };

  /** GET /{id} for a container or a media, with its owner's access; undefined: not Instagram's. */
  world.nodes.push((req) => {
    const id = req.params.id!;
    const container = store.containers.get(id);
    const media = store.media.get(id);
    const owner = container?.igUserId ?? media?.igUserId;
    if (!owner) return undefined;
    const account = access(req, owner, false);
    if (refused(account)) return account;
    store.calls.push({ method: 'GET', path: `/${id}`, params: paramsOf(req) });
    if (container) {
      // Graph answers a node's id whatever fields were asked: the IG Container reference's example
      // asks fields=status_code and gets {"status_code":"FINISHED","id":"…"}.
      return withUsage(owner, render(req, fieldList('id'), (fields) => ({ ...pick(fields, {
        id: () => container.id,
        status_code: () => store.statusOf(container),
        status: () => container.error ?? store.statusOf(container),
      }, 'IGContainer'), id: container.id })));
    }
    return withUsage(owner, render(req, fieldList('id'), (fields) => renderMedia(media!, fields, account)));
  });

  /** POST /{ig-media-id}/comments message= (a comment by the account), GET: the media's top-level comments (instagram-comments.ts). */
  const comments = (post: boolean) => (req: FbRequest): Reply | Promise<Reply> => {
    const media = store.media.get(req.params.id!);
    if (!media) {
      for (const edge of world.commentEdges) {
        const reply = edge(req, post);
        if (reply) return reply;
      }
      return post ? ig.unsupportedPost(req.params.id!) : unsupportedGet(req.params.id!);
    }
    const account = access(req, media.igUserId, post);
    if (refused(account)) return account;
    store.calls.push({ method: req.method, path: `/${media.id}/comments`, params: paramsOf(req) });
    if (store.now() < store.throttledUntil) return withUsage(account.id, ig.throttled());
    if (!post) return withUsage(account.id, listMediaComments(req, store, media.id));
    const message = req.query.message;
    if (!message) return withUsage(account.id, ig.invalidParameter('The parameter message is required.'));
    const comment = { id: store.nextId('1810'), mediaId: media.id, igUserId: account.id, username: account.username, text: message, timestamp: store.now(), likeCount: 0, hidden: false };
    store.comments.push(comment);
    return withUsage(account.id, { status: 200, body: { id: comment.id } });
  };

  return [
    { method: 'POST', url: '/:id/media', versioned: true, handler: onAccount(true, 'media', createContainer) },
    { method: 'POST', url: '/:id/media_publish', versioned: true, handler: onAccount(true, 'media_publish', publish) },
    { method: 'GET', url: '/:id/media', versioned: true, handler: onAccount(false, 'media', listMedia(false)) },
    { method: 'GET', url: '/:id/stories', versioned: true, handler: onAccount(false, 'stories', listMedia(true)) },
    {
      method: 'GET',
      url: '/:id/content_publishing_limit',
      versioned: true,
      handler: onAccount(false, 'content_publishing_limit', (req, account) => render(req, fieldList('quota_usage'), (fields) => ({
        data: [pick(fields, { quota_usage: () => store.usage(account.id), config: () => ({ quota_total: store.quotaTotal, quota_duration: DAY_MS / 1000 }) }, 'ContentPublishingLimit')],
      }))),
    },
    { method: 'POST', url: '/:id/comments', versioned: true, handler: comments(true) },
    { method: 'GET', url: '/:id/comments', versioned: true, handler: comments(false) },
  ];
}

/** The request's parameters without the token (what the inspection handle shows). */
function paramsOf(req: FbRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) if (value !== undefined && name !== 'access_token' && name !== 'appsecret_proof') out[name] = value;
  return out;
}

/** A route's own answer (an error) rather than the value it looked up. */
const refused = <T extends object>(value: T | Reply): value is Reply => 'status' in value && 'body' in value;
