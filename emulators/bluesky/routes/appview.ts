// The AppView methods Crier reads through the account's PDS (which proxies app.bsky.* to the
// AppView): an author's feed, a post's thread, posts by URI and a profile, computed from the records
// the emulator hosts. Other app.bsky.* methods still answer "No service configured".
import { invalidRequest, xrpcError } from '../errors.ts';
import type { StoredRecord } from '../state.ts';
import { intParam, requireStrings } from '../validate/params.ts';
import { postView, profileViewBasic, profileViewDetailed } from '../views.ts';
import type { PdsWorld, XrpcMethod } from '../xrpc.ts';

const POST = 'app.bsky.feed.post';
const REPOST = 'app.bsky.feed.repost';
const AT_URI = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/;

type Value = Record<string, any>;

export function appViewMethods(world: PdsWorld): XrpcMethod[] {
  const { store } = world;
  const didOf = (actor: string) => store.findAccount(actor)?.did;
  const postAt = (uri: string) => {
    const match = AT_URI.exec(uri);
    if (!match) return undefined;
    const did = didOf(match[1]!);
    return did ? store.getRecord(did, match[2]!, match[3]!) : undefined;
  };

  return [
    {
      nsid: 'app.bsky.feed.getAuthorFeed',
      type: 'query',
      auth: 'access',
      handler: ({ params }) => {
        const problem = requireStrings(params, ['actor'], ['cursor', 'filter']);
        if (problem) return problem;
        const limit = intParam(params.limit, 'limit', 50, 1, 100);
        if (typeof limit !== 'number') return limit;
        const did = didOf(params.actor!);
        if (!did) return invalidRequest('Profile not found');
        const filter = params.filter ?? 'posts_with_replies';
        // Newest first by record key (TIDs sort by time); the cursor is the last key served.
        const items = store.records
          .filter((r) => r.did === did && (r.collection === POST || (r.collection === REPOST && postAt((r.value as Value).subject?.uri))))
          .filter((r) => r.collection === REPOST || keptBy(filter, r, did))
          .sort((a, b) => (a.rkey < b.rkey ? 1 : a.rkey > b.rkey ? -1 : 0))
          .filter((r) => params.cursor === undefined || r.rkey < params.cursor);
        const page = items.slice(0, limit);
        const more = items.length > limit;
        return { status: 200, body: { feed: page.map((r) => feedItem(r)), ...(more ? { cursor: page.at(-1)!.rkey } : {}) } };
      },
    },
    {
      nsid: 'app.bsky.feed.getPostThread',
      type: 'query',
      auth: 'access',
      handler: ({ params }) => {
        const problem = requireStrings(params, ['uri']);
        if (problem) return problem;
        if (!AT_URI.test(params.uri!)) return invalidRequest(`Invalid at-uri at $.uri (got ${JSON.stringify(params.uri)})`);
        const depth = intParam(params.depth, 'depth', 6, 0, 1000);
        if (typeof depth !== 'number') return depth;
        const parentHeight = intParam(params.parentHeight, 'parentHeight', 80, 0, 1000);
        if (typeof parentHeight !== 'number') return parentHeight;
        const post = postAt(params.uri!);
        if (!post || post.collection !== POST) return xrpcError(400, 'NotFound', `Post not found: ${params.uri}`);
        return { status: 200, body: { thread: { ...threadView(post, depth), ...parentView(post, parentHeight) } } };
      },
    },
    {
      nsid: 'app.bsky.feed.getPosts',
      type: 'query',
      auth: 'access',
      handler: ({ params }) => {
        const raw = (params as Record<string, unknown>).uris;
        const uris = raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
        if (uris.length === 0) return invalidRequest('Missing required key "uris" at $');
        if (uris.length > 25) return invalidRequest(`Array too long at $.uris (maximum 25, got ${uris.length})`);
        const bad = uris.find((u) => !AT_URI.test(u));
        if (bad) return invalidRequest(`Invalid at-uri at $.uris (got ${JSON.stringify(bad)})`);
        // Posts that do not exist (deleted, never made) are left out, as the AppView does.
        const posts = uris.map(postAt).filter((r): r is StoredRecord => r?.collection === POST);
        return { status: 200, body: { posts: posts.map((r) => postView(world, r)) } };
      },
    },
    {
      nsid: 'app.bsky.actor.getProfile',
      type: 'query',
      auth: 'access',
      handler: ({ params }) => {
        const problem = requireStrings(params, ['actor']);
        if (problem) return problem;
        const did = didOf(params.actor!);
        if (!did) return invalidRequest('Profile not found');
        return { status: 200, body: profileViewDetailed(world, did) };
      },
    },
  ];

  function feedItem(record: StoredRecord): Record<string, unknown> {
    if (record.collection === REPOST) {
      const subject = postAt((record.value as Value).subject.uri)!;
      return {
        post: postView(world, subject),
        reason: { $type: 'app.bsky.feed.defs#reasonRepost', by: profileViewBasic(world, record.did), uri: record.uri, cid: record.cid, indexedAt: record.indexedAt },
      };
    }
    const reply = (record.value as Value).reply;
    const root = reply ? postAt(reply.root.uri) : undefined;
    const parent = reply ? postAt(reply.parent.uri) : undefined;
    return {
      post: postView(world, record),
      ...(reply ? { reply: { root: root ? postView(world, root) : notFound(reply.root.uri), parent: parent ? postView(world, parent) : notFound(reply.parent.uri) } } : {}),
    };
  }

  /** app.bsky.feed.defs#threadViewPost with its replies down to `depth` levels, oldest first. */
  function threadView(post: StoredRecord, depth: number): Record<string, unknown> {
    const view: Record<string, unknown> = { $type: 'app.bsky.feed.defs#threadViewPost', post: postView(world, post) };
    if (depth > 0) {
      view.replies = store.records
        .filter((r) => r.collection === POST && (r.value as Value).reply?.parent?.uri === post.uri)
        .map((r) => threadView(r, depth - 1));
    }
    return view;
  }

  /** The post's ancestors up to `height`, as `parent` (without their other replies). */
  function parentView(post: StoredRecord, height: number): Record<string, unknown> {
    const parentUri = (post.value as Value).reply?.parent?.uri as string | undefined;
    if (!parentUri || height === 0) return {};
    const parent = postAt(parentUri);
    if (!parent) return { parent: notFound(parentUri) };
    return { parent: { $type: 'app.bsky.feed.defs#threadViewPost', post: postView(world, parent), ...parentView(parent, height - 1) } };
  }
}

function notFound(uri: string) {
  return { $type: 'app.bsky.feed.defs#notFoundPost', uri, notFound: true };
}

/** getAuthorFeed's filters: which of the author's own posts a feed shows. */
function keptBy(filter: string, record: StoredRecord, did: string): boolean {
  const value = record.value as Value;
  switch (filter) {
    case 'posts_no_replies':
      return !value.reply;
    case 'posts_with_media':
      return !value.reply && ['app.bsky.embed.images', 'app.bsky.embed.video', 'app.bsky.embed.recordWithMedia'].includes(value.embed?.$type);
    case 'posts_with_video':
      return !value.reply && value.embed?.$type === 'app.bsky.embed.video';
    case 'posts_and_author_threads':
      return !value.reply || String(value.reply.root?.uri).startsWith(`at://${did}/`);
    default:
      return true;
  }
}
