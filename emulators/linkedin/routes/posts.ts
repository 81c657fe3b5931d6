// The Posts API (/rest/posts): create (201, empty body, the URN in x-restli-id), get one, find by
// author (newest first) and delete, with LinkedIn's author, scope, content and duplicate checks.
import type { Reply } from '../../shared/http.ts';
import { jsonBody } from '../../shared/http.ts';
import { accessDenied, contentError, duplicatePost, illegalArgument, notFound, schemaErrors } from '../errors.ts';
import { parseLittle } from '../little.ts';
import { assetStatus, noStats, type LinkedInPost, type PostContent } from '../publishing.ts';
import { mayActAs, type LinkedInWorld } from '../state.ts';
import { readScopeFor, restGuard, urnParam, writeScopeFor, type Caller, type Route } from './context.ts';
import { readPostBody, type PostBody } from '../validate/post-body.ts';

const MAX_COMMENTARY = 3000;
const AUTHOR = /^urn:li:(person|organization):[A-Za-z0-9_-]+$/;

export function postRoutes(world: LinkedInWorld): Route[] {
  const rest = restGuard(world);
  const { publishing } = world;

  /** 403 unless the caller holds the scope for `author` and may act as it. */
  const authorize = (caller: Caller, author: string, scopeFor: (author: string) => string, resource: string): Reply | undefined => {
    if (!caller.scopes.includes(scopeFor(author)) || !mayActAs(world, caller.sub, author)) return accessDenied(resource);
    return undefined;
  };

  /** Every asset the content references must exist, belong to the author and be AVAILABLE. */
  const checkAssets = (author: string, content: PostContent | undefined): Reply | undefined => {
    const refs: { urn: string; path: string; kinds: string[] }[] = [];
    if (content?.media) refs.push({ urn: content.media.id, path: 'content/media/id', kinds: ['image', 'video', 'document'] });
    content?.multiImage?.images.forEach((img, i) => refs.push({ urn: img.id, path: `content/multiImage/images/${i}/id`, kinds: ['image'] }));
    if (content?.article?.thumbnail) refs.push({ urn: content.article.thumbnail, path: 'content/article/thumbnail', kinds: ['image'] });
    for (const ref of refs) {
      const kind = /^urn:li:(image|video|document):/.exec(ref.urn)?.[1];
      if (!kind || !ref.kinds.includes(kind)) return contentError(400, `Invalid media urn ${ref.urn}`, 'INVALID_URN_TYPE', `Expected one of ${ref.kinds.map((k) => `urn:li:${k}`).join(', ')}`, ref.path);
      const asset = publishing.assets.get(ref.urn);
      if (!asset) return contentError(400, `Media ${ref.urn} does not exist`, 'MEDIA_ASSET_NOT_FOUND', 'Media asset not found', ref.path);
      if (asset.owner !== author) return contentError(400, `Media ${ref.urn} is not owned by ${author}`, 'MEDIA_ASSET_OWNER_MISMATCH', 'Media asset owner does not match the post author', ref.path);
      const status = assetStatus(asset, world.clock.now());
      if (status !== 'AVAILABLE') return contentError(400, `Media ${ref.urn} is not ready: status ${status}`, 'MEDIA_ASSET_NOT_AVAILABLE', `Media asset is in status ${status}`, ref.path);
    }
    return undefined;
  };

  const checkContent = (post: PostBody): Reply | undefined => {
    if (post.lifecycleState !== 'PUBLISHED') return contentError(400, 'Only lifecycleState PUBLISHED is accepted on create', 'INVALID_LIFECYCLE_STATE', 'lifecycleState must be PUBLISHED', 'lifecycleState');
    if (post.commentary.length > MAX_COMMENTARY) {
      return contentError(422, `Commentary is too long: ${post.commentary.length} characters, the maximum is ${MAX_COMMENTARY}`, 'MAX_LENGTH_EXCEEDED', `Length must be at most ${MAX_COMMENTARY}`, 'commentary');
    }
    const content = post.content;
    if (content && !content.media && !content.multiImage && !content.article) {
      return contentError(400, `Content type ${Object.keys(content)[0]} is not supported by this emulator`, 'UNSUPPORTED_CONTENT', 'Unsupported content type', 'content');
    }
    const images = content?.multiImage?.images.length;
    if (images !== undefined && (images < 2 || images > 20)) return contentError(400, `multiImage takes 2 to 20 images, got ${images}`, 'INVALID_IMAGE_COUNT', 'The number of images must be between 2 and 20', 'content/multiImage/images');
    if (content?.article && !/^https?:\/\/\S+$/.test(content.article.source)) return contentError(400, `Invalid article source ${content.article.source}`, 'INVALID_URL', 'source must be an http(s) URL', 'content/article/source');
    return checkAssets(post.author, content);
  };

  const duplicateOf = (post: PostBody): LinkedInPost | undefined => {
    if (!post.commentary) return undefined;
    const since = world.clock.now() - world.duplicateWindowMs;
    // Deleted posts count too: LinkedIn keeps refusing a repost of deleted text for a while (ComposioHQ/composio#2710).
    return publishing.posts.find((p) => p.author === post.author && p.commentarySent === post.commentary && p.createdAt >= since);
  };

  const create = rest('partnerApiPostsExternal.CREATE', [], (caller, { body, headers }) => {
    const read = readPostBody(jsonBody(body));
    if (Array.isArray(read)) return schemaErrors(read);
    if (!AUTHOR.test(read.author)) return schemaErrors([`/author :: "${read.author}" is not a valid person or organization URN`]);
    const denied = authorize(caller, read.author, writeScopeFor, `partnerApiPostsExternal.CREATE.${versionOf(headers)}`);
    if (denied) return denied;
    const problem = checkContent(read);
    if (problem) return problem;
    const duplicate = duplicateOf(read);
    if (duplicate) return duplicatePost(duplicate.urn);
    const little = parseLittle(read.commentary);
    const now = world.clock.now();
    const post: LinkedInPost = {
      urn: `urn:li:share:${publishing.nextId()}`,
      activityUrn: `urn:li:activity:${publishing.nextId()}`,
      author: read.author,
      commentary: little.kept,
      commentarySent: read.commentary,
      mentions: little.mentions,
      visibility: read.visibility,
      distribution: read.distribution,
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: read.isReshareDisabledByAuthor,
      content: read.content,
      createdAt: now,
      lastModifiedAt: now,
      deleted: false,
      request: jsonBody(body) as Record<string, unknown>,
      stats: noStats(),
    };
    publishing.posts.push(post);
    return { status: 201, headers: { 'x-restli-id': post.urn } };
  });

  /** The post the path names, if it exists and the caller may act on it as `resource`; else the answer. */
  const namedPost = (caller: Parameters<typeof authorize>[0], params: Record<string, string>, headers: Record<string, string | undefined>, scopeFor: typeof readScopeFor | typeof writeScopeFor, resource: string) => {
    const urn = urnParam(params.urn);
    const post = publishing.findPost(urn);
    if (!post) return { answer: notFound(`Post ${urn} does not exist`) };
    const denied = authorize(caller, post.author, scopeFor, `${resource}.${versionOf(headers)}`);
    return denied ? { answer: denied } : { post };
  };

  const getOne = rest('partnerApiPostsExternal.GET', [], (caller, { params, headers }) => {
    const { post, answer } = namedPost(caller, params, headers, readScopeFor, 'partnerApiPostsExternal.GET');
    if (!post) return answer;
    return { status: 200, body: postResource(post) };
  });

  const findByAuthor = rest('partnerApiPostsExternal.FINDER-author', [], (caller, { query, headers }) => {
    if (query.q !== 'author') return illegalArgument(`Invalid query parameter q: ${query.q ?? '(missing)'}`);
    const author = urnParam(query.author);
    if (!AUTHOR.test(author)) return illegalArgument(`Invalid author: ${author || '(missing)'}`);
    const start = Number(query.start ?? 0);
    const count = Number(query.count ?? 10);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) return illegalArgument('Invalid paging parameters start/count');
    const sortBy = query.sortBy ?? 'LAST_MODIFIED';
    if (sortBy !== 'LAST_MODIFIED' && sortBy !== 'CREATED') return illegalArgument(`Invalid sortBy: ${sortBy}`);
    const denied = authorize(caller, author, readScopeFor, `partnerApiPostsExternal.FINDER-author.${versionOf(headers)}`);
    if (denied) return denied;
    const key = sortBy === 'CREATED' ? 'createdAt' : 'lastModifiedAt';
    const all = publishing.posts.filter((p) => p.author === author && !p.deleted).sort((a, b) => b[key] - a[key] || (b.urn > a.urn ? 1 : -1));
    const next = start + count < all.length ? [{ rel: 'next', type: 'application/json', href: `/rest/posts?author=${encodeURIComponent(author)}&count=${count}&q=author&sortBy=${sortBy}&start=${start + count}` }] : [];
    return { status: 200, body: { paging: { start, count, links: next }, elements: all.slice(start, start + count).map(postResource) } };
  });

  const remove = rest('partnerApiPostsExternal.DELETE', [], (caller, { params, headers }) => {
    const { post, answer } = namedPost(caller, params, headers, writeScopeFor, 'partnerApiPostsExternal.DELETE');
    if (!post) return answer;
    post.deleted = true;
    post.lastModifiedAt = world.clock.now();
    return { status: 204 };
  });

  return [
    { method: 'POST', url: '/rest/posts', handler: create },
    { method: 'GET', url: '/rest/posts', handler: findByAuthor },
    { method: 'GET', url: '/rest/posts/:urn', handler: getOne },
    { method: 'DELETE', url: '/rest/posts/:urn', handler: remove },
  ];
}

/** LinkedIn's resource names in 403 texts end with the version as YYYYMMDD (202610 → 20261001). */
function versionOf(headers: Record<string, string | undefined>): string {
  return `${(headers['linkedin-version'] ?? '').slice(0, 6)}01`;
}

/** A post as GET /rest/posts answers it. */
export function postResource(post: LinkedInPost) {
  return {
    id: post.urn,
    author: post.author,
    commentary: post.commentary,
    visibility: post.visibility,
    distribution: post.distribution,
    lifecycleState: post.lifecycleState,
    lifecycleStateInfo: { isEditedByAuthor: false },
    isReshareDisabledByAuthor: post.isReshareDisabledByAuthor,
    ...(post.content ? { content: post.content } : {}),
    createdAt: post.createdAt,
    publishedAt: post.createdAt,
    lastModifiedAt: post.lastModifiedAt,
  };
}
