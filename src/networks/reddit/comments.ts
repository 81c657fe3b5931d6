// A post's comments on Reddit, and answering them. GET /comments/{article}?sort=new&threaded=true
// gives the tree (top-level only without includeReplies: depth=1); where Reddit left comments out it
// puts `more` stubs. Top-level stubs are the next page (the cursor: their ids, read with
// /api/morechildren); stubs under comments are expanded with /api/morechildren, at most
// MAX_EXPANSIONS calls a page — past that, and for "continue this thread" stubs (Reddit names no
// ids), the parent's platform_specific.more_replies says how many answers were not read.
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { RedditClient } from './client.ts';
import { ReplyTree, type MoreStub } from './replies.ts';
import { clientOf, fullname } from './session.ts';

/** Comments asked of /comments/{article} per page (Reddit's limit counts every comment of the tree). */
const TREE_LIMIT = 200;
/** Reddit's subtree depth when answers are asked for (its own default shows about ten levels). */
const DEPTH = 10;
/** /api/morechildren takes at most 100 ids a call. */
const MORE_MAX = 100;
/** morechildren calls a page may make to expand stubs under comments (each counts against 100 QPM). */
const MAX_EXPANSIONS = 3;
const COMMENT_MAX = 10_000;

export async function listRedditComments(apiUrl: string, session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
  const client = clientOf(apiUrl, session);
  const root = fullname('t3', post.root.platformId);
  const tree = new ReplyTree(root, options.includeReplies);
  let rest: string[] = [];
  if (options.cursor) {
    const ids = cursorIds(options.cursor);
    tree.add(await client.moreChildren(root, ids.slice(0, MORE_MAX), 'new'));
    rest = ids.slice(MORE_MAX);
  } else {
    tree.add(await client.commentTree(root.slice(3), { sort: 'new', depth: options.includeReplies ? DEPTH : 1, limit: TREE_LIMIT }));
  }
  if (options.includeReplies) await expand(client, root, tree);
  const next = [...rest, ...tree.topStubs.flatMap((s) => s.ids)];
  return { items: tree.top, ...(next.length ? { next: next.join(',') } : {}) };
}

/** Reads what stubs under comments left out, a bounded number of calls; marks what stays unread. */
async function expand(client: RedditClient, root: string, tree: ReplyTree): Promise<void> {
  const read = new Set<MoreStub>();
  for (let call = 0; call < MAX_EXPANSIONS; call++) {
    const batch: string[] = [];
    for (const stub of tree.nested.filter((s) => s.ids.length)) {
      const taken = stub.ids.splice(0, MORE_MAX - batch.length);
      batch.push(...taken);
      // What the stub still stands for once these are read (its count includes their answers: at least the ids left).
      stub.count = Math.max(stub.ids.length, stub.count - taken.length);
      if (!stub.ids.length) read.add(stub);
      if (batch.length >= MORE_MAX) break;
    }
    if (!batch.length) break;
    tree.add(await client.moreChildren(root, batch, 'new'));
  }
  // Left: stubs past the calls allowed, and "continue this thread" ones (no ids to ask for).
  for (const stub of tree.nested) if (!read.has(stub)) tree.markUnexpanded(stub);
}

/** The cursor is the ids a top-level `more` stub named, comma-separated. */
function cursorIds(cursor: string): string[] {
  const ids = cursor.split(',').filter(Boolean);
  if (!ids.length || ids.some((id) => !/^[a-z0-9]{1,13}$/i.test(id))) throw new PublishError('permanent', 'reddit: the cursor is not one this list gave', undefined, 'invalid');
  return ids;
}

export async function replyOnReddit(apiUrl: string, session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
  if (!text.trim()) throw new PublishError('permanent', 'reddit: a comment needs text', undefined, 'invalid');
  if (text.length > COMMENT_MAX) throw new PublishError('permanent', `reddit: a comment takes at most ${COMMENT_MAX} characters (got ${text.length})`, undefined, 'invalid');
  const parent = parentCommentId ? fullname('t1', parentCommentId) : fullname('t3', post.root.platformId);
  const comment = await clientOf(apiUrl, session).comment(parent, text);
  return { replyId: comment.name.replace(/^t1_/, '') };
}
