// A post's comments on LinkedIn, and answering them. GET /rest/socialActions/{post}/comments lists
// the top-level comments (start/count; the cursor is the next start); a comment's answers, one tier,
// are listed with the comment's own URN as the target. Answering: POST on the post, or, for an
// answer, on the parent comment's URN with `parentComment` (the Comments API's nested comment).
// Reading needs r_organization_social (organization posts) or the restricted r_member_social.
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { resolveAuthors, type AuthorName } from './authors.ts';
import type { LinkedInClient } from './client.ts';
import { actorOf, clientOf } from './session.ts';
import { commentParts, encodeUrn, isOrganization, postUrn } from './urn.ts';

const PAGE = 50;
/** Answers read per comment (LinkedIn's count is at most 100); more are counted in platform_specific.more_replies. */
const ANSWERS = 100;

interface CommentElement {
  id: string;
  commentUrn: string;
  actor: string;
  message?: { text?: string };
  created?: { time?: number };
  parentComment?: string;
  likesSummary?: { totalLikes?: number };
  commentsSummary?: { totalFirstLevelComments?: number; aggregatedTotalComments?: number };
}

interface CommentsPage {
  elements?: CommentElement[];
  paging?: { start?: number; count?: number; total?: number };
}

export async function listLinkedInComments(apiUrl: string, session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
  const client = clientOf(apiUrl, session);
  const urn = postUrn(post.root.platformId);
  const start = options.cursor === undefined ? 0 : Number(options.cursor);
  if (!Number.isInteger(start) || start < 0) throw new PublishError('permanent', 'linkedin: the cursor is not one this list gave', undefined, 'invalid');
  const page = await commentsOn(client, urn, start, PAGE, session);
  const top = page.elements ?? [];
  const answers = new Map<string, CommentsPage>();
  if (options.includeReplies) {
    for (const comment of top) {
      // The summary says when there is nothing to read; without it, ask.
      if (comment.commentsSummary?.totalFirstLevelComments === 0) continue;
      answers.set(comment.commentUrn, await commentsOn(client, comment.commentUrn, 0, ANSWERS, session));
    }
  }
  const everyone = [...top, ...[...answers.values()].flatMap((p) => p.elements ?? [])].map((c) => c.actor);
  const names = options.resolveAuthorNames ? await resolveAuthors(client, apiUrl, everyone, actorOf(session)) : new Map<string, AuthorName | null>();
  const items = top.map((comment) => {
    const reply = replyOf(comment, names);
    if (!options.includeReplies) return reply;
    const listed = answers.get(comment.commentUrn);
    const replies = (listed?.elements ?? []).map((answer) => replyOf(answer, names));
    const total = listed?.paging?.total;
    if (total !== undefined && total > replies.length) reply.platform_specific!.more_replies = total - replies.length;
    return { ...reply, replies };
  });
  const total = page.paging?.total;
  const more = total !== undefined ? start + top.length < total : top.length === PAGE;
  return { items, ...(more && top.length ? { next: String(start + top.length) } : {}) };
}

async function commentsOn(client: LinkedInClient, target: string, start: number, count: number, session: AccountSession): Promise<CommentsPage> {
  try {
    const { body } = await client.request({ url: `/rest/socialActions/${encodeUrn(target)}/comments?start=${start}&count=${count}` });
    return body as CommentsPage;
  } catch (error) {
    if (!(error instanceof PublishError && error.code === 'forbidden')) throw error;
    const why = isOrganization(actorOf(session))
      ? 'reading an organization post\'s comments needs r_organization_social and an ADMINISTRATOR or DIRECT_SPONSORED_CONTENT_POSTER role on the page'
      : 'reading the comments of a member\'s post needs r_member_social, a restricted permission LinkedIn grants only to approved developers';
    throw new PublishError('permanent', `linkedin: LinkedIn refused to list the comments (${error.message.replace(/^linkedin: /, '')}): ${why}`, undefined, 'forbidden');
  }
}

function replyOf(c: CommentElement, names: Map<string, AuthorName | null>): Reply {
  const name = names.get(c.actor) ?? null;
  const time = c.created?.time;
  return {
    id: c.id,
    author: c.actor,
    author_name: name?.name ?? null,
    ...(name?.username ? { author_username: name.username } : {}),
    ...(name?.profileUrl ? { author_profile_url: name.profileUrl } : {}),
    text: c.message?.text ?? '',
    created_at: typeof time === 'number' ? new Date(time).toISOString() : null,
    ...(typeof c.likesSummary?.totalLikes === 'number' ? { like_count: c.likesSummary.totalLikes } : {}),
    platform_specific: { commentUrn: c.commentUrn, ...(c.parentComment ? { parentComment: c.parentComment } : {}) },
  };
}

/**
 * A comment on the post as the account, or an answer to comment `parentCommentId` (its id as the
 * list gives it, or its URN). LinkedIn nests one level: answering an answer answers its parent.
 */
export async function replyOnLinkedIn(apiUrl: string, session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
  if (!text.trim()) throw new PublishError('permanent', 'linkedin: a comment needs text', undefined, 'invalid');
  const client = clientOf(apiUrl, session);
  const urn = postUrn(post.root.platformId);
  const parent = parentCommentId === undefined ? undefined : await threadOf(client, urn, parentCommentId);
  const target = parent ?? urn;
  // A nested comment's object is the post its parent hangs on (the activity in the comment URN).
  const object = parent ? commentParts(parent)?.on : urn;
  if (!object) throw new PublishError('permanent', `linkedin: LinkedIn named the parent comment "${parent}", which is not a comment URN`, undefined, 'invalid');
  const answer = await client.request({
    url: `/rest/socialActions/${encodeUrn(target)}/comments`,
    method: 'POST',
    json: { actor: actorOf(session), object, message: { text }, ...(parent ? { parentComment: parent } : {}) },
  });
  const created = answer.body as { id?: string } | undefined;
  const header = answer.header('x-restli-id');
  const id = created?.id ?? (header ? commentParts(decodeURIComponent(header))?.id : undefined);
  if (!id) throw new PublishError('unknown', `linkedin: the comment was accepted (${answer.status}) without its id`);
  return { replyId: id };
}

/** The URN of the top-level comment an answer goes under: the comment itself, or its parent when it is an answer. */
async function threadOf(client: LinkedInClient, post: string, parentCommentId: string): Promise<string> {
  if (commentParts(parentCommentId)) return parentCommentId;
  if (!/^\d+$/.test(parentCommentId)) throw new PublishError('permanent', `linkedin: "${parentCommentId}" is not a LinkedIn comment id`, undefined, 'invalid');
  const { body } = await client.request({ url: `/rest/socialActions/${encodeUrn(post)}/comments/${parentCommentId}` });
  const comment = body as CommentElement;
  return comment.parentComment ?? comment.commentUrn;
}
