// An Instagram media's comments as Graph lists them: top-level comments oldest first (answers are
// reached through `replies{…}` or /{ig-comment-id}/replies, one tier), cursor-paged, each with
// from{id,username} (no name, no picture), like_count, hidden and parent_id on answers.
import type { Reply } from '../../shared/http.ts';
import { fieldList, pick, renderFields, type FieldTree } from '../validate/fields.ts';
import { graphTime, listBody, pageOf } from '../paging.ts';
import type { FbRequest } from './context.ts';
import type { IgComment, InstagramStore } from '../state/instagram.ts';

const DEFAULTS = fieldList('id', 'text', 'timestamp');
const LIMITS = { default: 25, max: 50 };

export function renderIgComment(req: FbRequest, store: InstagramStore, c: IgComment, fields: FieldTree): Record<string, unknown> {
  return pick(fields, {
    id: () => c.id,
    text: () => c.text,
    timestamp: () => graphTime(c.timestamp),
    username: () => c.username,
    like_count: () => c.likeCount,
    hidden: () => c.hidden,
    from: (sub) => pick(sub ?? fieldList('id', 'username'), { id: () => c.igUserId, username: () => c.username }, 'IGCommentFromUser'),
    parent_id: () => c.parentId,
    media: (sub) => pick(sub ?? fieldList('id'), { id: () => c.mediaId }, 'IGMedia'),
    replies: (sub) => {
      if (c.parentId) return undefined;
      const answers = store.comments.filter((a) => a.parentId === c.id);
      // The expansion pages as the edge does; its next URL asks /{ig-comment-id}/replies.
      const page = pageOf({ ...req, query: { access_token: req.token ?? undefined } }, answers, `/${c.id}/replies`, LIMITS);
      return listBody(page.items.map((a) => renderIgComment(req, store, a, sub ?? DEFAULTS)), page);
    },
  }, 'IGComment');
}

/** GET /{ig-media-id}/comments: the top-level comments. */
export function listMediaComments(req: FbRequest, store: InstagramStore, mediaId: string): Reply {
  const all = store.comments.filter((c) => c.mediaId === mediaId && !c.parentId);
  const page = pageOf(req, all, `/${mediaId}/comments`, LIMITS);
  return renderFields(req.query, DEFAULTS, (fields) => listBody(page.items.map((c) => renderIgComment(req, store, c, fields)), page));
}

/** GET /{ig-comment-id}/replies: the answers to a top-level comment. */
export function listReplies(req: FbRequest, store: InstagramStore, comment: IgComment): Reply {
  const all = store.comments.filter((c) => c.parentId === comment.id);
  const page = pageOf(req, all, `/${comment.id}/replies`, LIMITS);
  return renderFields(req.query, DEFAULTS, (fields) => listBody(page.items.map((c) => renderIgComment(req, store, c, fields)), page));
}
