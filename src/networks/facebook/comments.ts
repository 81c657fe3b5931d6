// A Page post's comments as Reply records, and answering them, with the Page token:
// GET /{object-id}/comments?filter=toplevel (the top-level comments, oldest first, cursor-paged), and
// when replies are asked, one tier under each through GET /{comment-id}/comments (Facebook threads
// one level: an answer to an answer is attached to the top-level comment). POST /{object-id}/comments
// comments the post; POST /{comment-id}/comments answers a comment. Authors are Page-scoped ids with
// their name; Graph gives no profile URL for them.
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { cursorParams, GraphApi, isoTime, nextCursor, node, replyText, type GraphList } from './graph-api.ts';

const PAGE_SIZE = 50;
/** Answers read under one comment at most (pages of 100): the rest stays on Facebook. */
const MAX_ANSWERS = 500;
const FIELDS = 'id,message,created_time,from{id,name},like_count,comment_count,parent{id},permalink_url,attachment';
/** The fields of the deprecated shape: Graph's comment items as Facebook returns them by default, with counts. */
const LEGACY_FIELDS = 'id,message,created_time,from,like_count,comment_count';

interface GraphComment {
  id: string;
  message?: string;
  created_time?: string;
  from?: { id?: string; name?: string };
  like_count?: number;
  comment_count?: number;
  parent?: { id?: string };
  permalink_url?: string;
  attachment?: unknown;
}

export function pageComments(apiUrl: string) {
  return {
    async list(session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
      const api = GraphApi.of('facebook', apiUrl, session);
      const list = await api.get<GraphList<GraphComment>>(`${node(post.root.platformId)}/comments`, {
        fields: FIELDS, filter: 'toplevel', order: 'chronological', limit: String(PAGE_SIZE), ...cursorParams('facebook', options.cursor),
      });
      const items: Reply[] = [];
      for (const comment of list.data ?? []) {
        const reply = toReply(comment);
        if (options.includeReplies) reply.replies = (comment.comment_count ?? 1) > 0 ? (await answers(api, comment.id)).map(toReply) : [];
        items.push(reply);
      }
      const next = nextCursor(list);
      return { items, ...(next ? { next } : {}) };
    },

    async reply(session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
      const api = GraphApi.of('facebook', apiUrl, session);
      const target = parentCommentId ?? post.root.platformId;
      return { replyId: await api.create(`${node(target)}/comments`, { message: replyText('facebook', text) }) };
    },

    async legacy(session: AccountSession, post: PublishedPost, options: { cursor?: string }): Promise<Page<unknown>> {
      const api = GraphApi.of('facebook', apiUrl, session);
      const list = await api.get<GraphList<unknown>>(`${node(post.root.platformId)}/comments`, {
        fields: LEGACY_FIELDS, filter: 'toplevel', limit: String(PAGE_SIZE), ...cursorParams('facebook', options.cursor),
      });
      const next = nextCursor(list);
      return { items: list.data ?? [], ...(next ? { next } : {}) };
    },
  };
}

/** Every answer to a comment, oldest first, up to MAX_ANSWERS. */
async function answers(api: GraphApi, commentId: string): Promise<GraphComment[]> {
  const out: GraphComment[] = [];
  let cursor: string | undefined;
  do {
    const list = await api.get<GraphList<GraphComment>>(`${node(commentId)}/comments`, { fields: FIELDS, order: 'chronological', limit: '100', ...cursorParams('facebook', cursor) });
    out.push(...(list.data ?? []));
    cursor = nextCursor(list);
  } while (cursor && out.length < MAX_ANSWERS);
  return out.slice(0, MAX_ANSWERS);
}

function toReply(c: GraphComment): Reply {
  const platform: Record<string, unknown> = {};
  if (c.comment_count !== undefined) platform.comment_count = c.comment_count;
  if (c.parent?.id) platform.parent_id = c.parent.id;
  if (c.permalink_url) platform.permalink_url = c.permalink_url;
  if (c.attachment !== undefined) platform.attachment = c.attachment;
  return {
    id: c.id,
    // Without pages_read_user_content (or for some private profiles) Graph leaves `from` out.
    author: c.from?.id ?? '',
    author_name: c.from?.name ?? null,
    text: c.message ?? '',
    created_at: isoTime(c.created_time),
    ...(c.like_count !== undefined ? { like_count: c.like_count } : {}),
    ...(Object.keys(platform).length ? { platform_specific: platform } : {}),
  };
}
