// A post's replies: app.bsky.feed.getPostThread (no pagination: depth is the only knob), as Reply
// records or the deprecated shape; answers are a post record with reply.root/parent strong refs, the
// parent looked up by its uri.
import { RichText, type AtpAgent } from '@atproto/api';
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { parsePostUri, POST, recordOf, replyOf, type PostViewLike } from './views.ts';
import { withAgent } from './with-agent.ts';

const MAX_GRAPHEMES = 300;
/** getPostThread's largest depth: answers at any depth Bluesky keeps. */
const ANY_DEPTH = 1000;

interface ThreadNode {
  $type?: string;
  post?: PostViewLike;
  replies?: unknown[];
}

const isThreadPost = (node: unknown): node is ThreadNode & { post: PostViewLike } => (node as ThreadNode)?.$type === 'app.bsky.feed.defs#threadViewPost';

/**
 * The post's thread: the root's answers and those of its own thread containers (which answer the
 * root), without the containers themselves. Depth 2 suffices for the top level; ANY_DEPTH nests all.
 */
async function topLevelReplies(agent: AtpAgent, post: PublishedPost, depth: number): Promise<(ThreadNode & { post: PostViewLike })[]> {
  const res = await agent.app.bsky.feed.getPostThread({ uri: post.root.platformId, depth, parentHeight: 0 });
  const thread = res.data.thread as ThreadNode;
  if (!isThreadPost(thread)) {
    const why = thread.$type === 'app.bsky.feed.defs#blockedPost' ? 'is blocked' : 'was not found';
    throw new PublishError('permanent', `bluesky: the post ${why}`, undefined, thread.$type === 'app.bsky.feed.defs#blockedPost' ? 'forbidden' : 'not_found');
  }
  const own = new Set(post.parts.map((p) => p.platformId));
  const answers = (node: ThreadNode) => (node.replies ?? []).filter(isThreadPost);
  const containers = answers(thread).filter((n) => own.has(n.post.uri));
  return [thread, ...containers].flatMap(answers).filter((n) => !own.has(n.post.uri));
}

export async function listComments(service: string, session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
  parsePostUri(post.root.platformId, 'post');
  return withAgent(service, session, 'reading the replies', async (agent) => {
    const nodes = await topLevelReplies(agent, post, options.includeReplies ? ANY_DEPTH : 2);
    const toReply = (node: ThreadNode & { post: PostViewLike }): Reply => {
      const reply = replyOf(node.post);
      if (options.includeReplies) reply.replies = (node.replies ?? []).filter(isThreadPost).map(toReply);
      return reply;
    };
    return { items: nodes.map(toReply) };
  });
}

/** The deprecated shape: each top-level reply with its numeric reply count. */
export async function legacyReplies(service: string, session: AccountSession, post: PublishedPost): Promise<Page<unknown>> {
  parsePostUri(post.root.platformId, 'post');
  return withAgent(service, session, 'reading the replies', async (agent) => {
    const nodes = await topLevelReplies(agent, post, 2);
    return {
      items: nodes.map(({ post: view }) => ({
        uri: view.uri,
        cid: view.cid,
        author: { did: view.author.did, handle: view.author.handle, displayName: view.author.displayName ?? null },
        text: recordOf(view).text ?? '',
        createdAt: recordOf(view).createdAt ?? null,
        replyCount: view.replyCount ?? 0,
      })),
    };
  });
}

export async function replyToPost(service: string, session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
  checkText(text);
  parsePostUri(post.root.platformId, 'post');
  if (parentCommentId !== undefined) parsePostUri(parentCommentId, 'comment');
  return withAgent(service, session, 'replying', async (agent, did) => {
    const rootUri = post.root.platformId;
    const wanted = [...new Set([rootUri, parentCommentId ?? rootUri])];
    const found = (await agent.app.bsky.feed.getPosts({ uris: wanted })).data.posts as PostViewLike[];
    const view = (uri: string) => found.find((p) => p.uri === uri);
    const root = view(rootUri);
    if (!root) throw new PublishError('permanent', 'bluesky: the post was not found (deleted?)', undefined, 'not_found');
    const parent = view(parentCommentId ?? rootUri);
    if (!parent) throw new PublishError('permanent', `bluesky: the comment ${parentCommentId} was not found (deleted?)`, undefined, 'not_found');
    if (parentCommentId && recordOf(parent).reply?.root?.uri !== rootUri) {
      throw new PublishError('permanent', `bluesky: ${parentCommentId} is not a reply in this post's thread`, undefined, 'invalid');
    }
    const rich = new RichText({ text });
    await rich.detectFacets(agent);
    const record = {
      $type: POST,
      text: rich.text,
      ...(rich.facets?.length ? { facets: rich.facets } : {}),
      reply: { root: { uri: root.uri, cid: root.cid }, parent: { uri: parent.uri, cid: parent.cid } },
      createdAt: new Date().toISOString(),
    };
    const res = await agent.com.atproto.repo.createRecord({ repo: did, collection: POST, record });
    return { replyId: res.data.uri };
  });
}

function checkText(text: string): void {
  if (text.trim() === '') throw new PublishError('permanent', 'bluesky: the reply text is empty', undefined, 'invalid');
  const length = new RichText({ text }).graphemeLength;
  if (length > MAX_GRAPHEMES) throw new PublishError('permanent', `bluesky: the reply has ${length} characters (graphemes); Bluesky allows ${MAX_GRAPHEMES}`, undefined, 'invalid');
}
