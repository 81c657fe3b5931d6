// A media's comments as Reply records, and answering them (Instagram API with Facebook Login):
// GET /{ig-media-id}/comments lists the top-level comments (oldest first, cursor-paged) and, when
// replies are asked, their answers through the replies{} expansion, one tier (Instagram attaches an
// answer to an answer to the top-level comment), the rest of a long thread through GET
// /{ig-comment-id}/replies. POST /{ig-media-id}/comments comments the media; POST
// /{ig-comment-id}/replies answers a comment. Authors are only {id (IGSID), username}: no name or
// picture (§1.1: those need the person to have messaged the account).
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { cursorParams, GraphApi, isoTime, nextCursor, node, replyText, type GraphList } from '../facebook/graph-api.ts';

const PAGE_SIZE = 50;
const MAX_ANSWERS = 500;
const COMMENT_FIELDS = 'id,text,timestamp,like_count,hidden,from{id,username},username,parent_id';
const LEGACY_FIELDS = 'id,text,timestamp,username,like_count,hidden,from,replies{id,text,timestamp,username,like_count,from}';

interface GraphComment {
  id: string;
  text?: string;
  timestamp?: string;
  like_count?: number;
  hidden?: boolean;
  from?: { id?: string; username?: string };
  username?: string;
  parent_id?: string;
  replies?: GraphList<GraphComment>;
}

export function mediaComments(apiUrl: string) {
  return {
    async list(session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
      const api = GraphApi.of('instagram', apiUrl, session);
      const fields = options.includeReplies ? `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}` : COMMENT_FIELDS;
      const list = await api.get<GraphList<GraphComment>>(`${node(post.root.platformId)}/comments`, {
        fields, limit: String(PAGE_SIZE), ...cursorParams('instagram', options.cursor),
      });
      const items: Reply[] = [];
      for (const comment of list.data ?? []) {
        const reply = toReply(comment);
        if (options.includeReplies) reply.replies = (await answers(api, comment)).map(toReply);
        items.push(reply);
      }
      const next = nextCursor(list);
      return { items, ...(next ? { next } : {}) };
    },

    async reply(session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
      const api = GraphApi.of('instagram', apiUrl, session);
      const message = replyText('instagram', text);
      const replyId = parentCommentId
        ? await api.create(`${node(parentCommentId)}/replies`, { message })
        : await api.create(`${node(post.root.platformId)}/comments`, { message });
      return { replyId };
    },

    async legacy(session: AccountSession, post: PublishedPost, options: { cursor?: string }): Promise<Page<unknown>> {
      const api = GraphApi.of('instagram', apiUrl, session);
      const list = await api.get<GraphList<unknown>>(`${node(post.root.platformId)}/comments`, {
        fields: LEGACY_FIELDS, limit: String(PAGE_SIZE), ...cursorParams('instagram', options.cursor),
      });
      const next = nextCursor(list);
      return { items: list.data ?? [], ...(next ? { next } : {}) };
    },
  };
}

/** The expansion's first page of answers, then the rest through /{comment-id}/replies, up to MAX_ANSWERS. */
async function answers(api: GraphApi, comment: GraphComment): Promise<GraphComment[]> {
  const out = [...(comment.replies?.data ?? [])];
  let cursor = comment.replies ? nextCursor(comment.replies) : undefined;
  while (cursor && out.length < MAX_ANSWERS) {
    const list = await api.get<GraphList<GraphComment>>(`${node(comment.id)}/replies`, { fields: COMMENT_FIELDS, limit: '50', ...cursorParams('instagram', cursor) });
    out.push(...(list.data ?? []));
    cursor = nextCursor(list);
  }
  return out.slice(0, MAX_ANSWERS);
}

function toReply(c: GraphComment): Reply {
  const username = c.from?.username ?? c.username;
  const platform: Record<string, unknown> = {};
  if (c.hidden !== undefined) platform.hidden = c.hidden;
  if (c.parent_id) platform.parent_id = c.parent_id;
  return {
    id: c.id,
    author: c.from?.id ?? '',
    author_name: null,
    ...(username ? { author_username: username, author_profile_url: `https://www.instagram.com/${username}/` } : {}),
    text: c.text ?? '',
    created_at: isoTime(c.timestamp),
    ...(c.like_count !== undefined ? { like_count: c.like_count } : {}),
    ...(Object.keys(platform).length ? { platform_specific: platform } : {}),
  };
}
