// A post's replies as Reply records (retrieve-and-manage-replies doc): GET /{container}/replies pages
// the top-level ones, oldest first — the direct replies to the root, then, for a thread Crier
// published, those to each later container in turn (those containers are the post itself, not
// comments, and are left out). With answers asked for, GET /{root}/conversation reads every reply at
// any depth once, and each is nested under the one it answers (`replied_to`). Replies carry no author
// id, no display name and no like count: the author is the `username` (engagement.md §1.1).
import type { AccountSession, CommentListOptions, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { ThreadsClient } from './client.ts';
import { clientFor, graphPage, isoTime, profileUrl } from './session.ts';

/** Reply fields (reply-management reference, Feb 2026, which lists profile_picture_url and is_verified too). */
const FIELDS = 'id,text,timestamp,permalink,username,media_type,has_replies,replied_to,root_post,hide_status,is_reply_owned_by_me,profile_picture_url,is_verified';
const TOP_PAGE = 50;
const CONVERSATION_PAGE = '100';
/** Pages of the conversation read at most for the nesting (5,000 replies): beyond, deeper answers are left out. */
const MAX_CONVERSATION_PAGES = 50;

export interface ThreadsReply {
  id: string;
  text?: string;
  timestamp?: string;
  permalink?: string;
  username?: string;
  media_type?: string;
  has_replies?: boolean;
  replied_to?: { id: string };
  root_post?: { id: string };
  hide_status?: string;
  is_reply_owned_by_me?: boolean;
  profile_picture_url?: string;
  is_verified?: boolean;
}

/**
 * Where a page starts: which container's replies (0 the root, 1… the later ones) and Threads' cursor
 * in them. Crier's cursor is Threads' own on the root, `part{n}:{cursor}` past it.
 */
interface Position {
  part: number;
  after?: string;
}

const PART_CURSOR = /^part(\d+):(.*)$/;

function positionOf(cursor: string | undefined): Position {
  const match = cursor ? PART_CURSOR.exec(cursor) : null;
  if (!match) return { part: 0, ...(cursor ? { after: cursor } : {}) };
  return { part: Number(match[1]), ...(match[2] ? { after: match[2] } : {}) };
}

function cursorOf(position: Position): string {
  return position.part === 0 ? position.after! : `part${position.part}:${position.after ?? ''}`;
}

export async function listComments(apiUrl: string, session: AccountSession, post: PublishedPost, options: CommentListOptions): Promise<Page<Reply>> {
  const client = clientFor(apiUrl, session);
  const parts = post.parts.length ? post.parts : [post.root];
  const ownParts = new Set(parts.map((part) => part.platformId));
  const answers = options.includeReplies ? await answersByParent(client, post.root.platformId, ownParts) : undefined;
  const items: Reply[] = [];
  // A container's replies that do not fill the page are followed by the next container's.
  for (let at = positionOf(options.cursor); ;) {
    const container = parts[at.part];
    if (!container) throw new PublishError('permanent', `threads: the cursor ${options.cursor} does not belong to this post`, undefined, 'invalid');
    // What is left of the page: a page never holds more than TOP_PAGE replies, whichever containers they answer.
    const limit = String(TOP_PAGE - items.length);
    const page = graphPage<ThreadsReply>(await client.read(`/${container.platformId}/replies`, { fields: FIELDS, reverse: 'false', limit, after: at.after }));
    for (const reply of page.data) if (!ownParts.has(reply.id)) items.push(answers ? nested(reply, answers, new Set()) : replyOf(reply));
    if (page.after) return { items, next: cursorOf({ part: at.part, after: page.after }) };
    if (at.part + 1 >= parts.length) return { items };
    at = { part: at.part + 1 };
    if (items.length >= TOP_PAGE) return { items, next: cursorOf(at) };
  }
}

/** Every reply below the root, grouped by the id it answers (top-level ones, under a container of the post, are not), in conversation order. */
async function answersByParent(client: ThreadsClient, root: string, ownParts: Set<string>): Promise<Map<string, ThreadsReply[]>> {
  const byParent = new Map<string, ThreadsReply[]>();
  let after: string | undefined;
  for (let read = 0; read < MAX_CONVERSATION_PAGES; read++) {
    const page = graphPage<ThreadsReply>(await client.read(`/${root}/conversation`, { fields: FIELDS, reverse: 'false', limit: CONVERSATION_PAGE, after }));
    for (const reply of page.data) {
      const parent = reply.replied_to?.id;
      if (parent && !ownParts.has(parent)) byParent.set(parent, [...(byParent.get(parent) ?? []), reply]);
    }
    if (!page.after) break;
    after = page.after;
  }
  return byParent;
}

/** A reply with its answers at any depth (`seen` guards against a cycle in what the network sent). */
function nested(reply: ThreadsReply, answers: Map<string, ThreadsReply[]>, seen: Set<string>): Reply {
  seen.add(reply.id);
  const below = (answers.get(reply.id) ?? []).filter((answer) => !seen.has(answer.id));
  return { ...replyOf(reply), replies: below.map((answer) => nested(answer, answers, seen)) };
}

export function replyOf(reply: ThreadsReply): Reply {
  const username = reply.username ?? '';
  return {
    id: reply.id,
    author: username,
    author_name: null,
    ...(username ? { author_username: username, author_profile_url: profileUrl(username) } : {}),
    ...(reply.profile_picture_url ? { author_avatar_url: reply.profile_picture_url } : {}),
    text: reply.text ?? '',
    created_at: isoTime(reply.timestamp),
    platform_specific: {
      ...(reply.permalink ? { permalink: reply.permalink } : {}),
      ...(reply.media_type ? { media_type: reply.media_type } : {}),
      ...(reply.hide_status ? { hide_status: reply.hide_status } : {}),
      ...(reply.replied_to?.id ? { replied_to_id: reply.replied_to.id } : {}),
      ...(reply.is_reply_owned_by_me === undefined ? {} : { is_reply_owned_by_me: reply.is_reply_owned_by_me }),
      ...(reply.is_verified === undefined ? {} : { is_verified: reply.is_verified }),
    },
  };
}
