// A Vimeo video's comments as the spec's Reply records (engagement.md §1.1, §12.3): one tier deep —
// top-level comments from GET /videos/{id}/comments (newest first), their replies from
// …/comments/{cid}/replies (oldest first: a conversation reads in order), fetched only when the
// comment says it has some. Answering: POST …/comments, or …/comments/{cid}/replies for a comment.
import type { NetworkCapabilities, Page, Reply } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { idOf, type VimeoClient } from './client.ts';
import { clientOf, pageOf, PER_PAGE, videoUriOf } from './session.ts';

/** Pages of one comment's replies read at most (10,000 replies). */
const MAX_REPLY_PAGES = 100;

/** A comment as Vimeo returns it (api.yaml's comment schema); `user` is null for a member who left. */
export interface VimeoCommentObject {
  uri: string;
  text?: string;
  created_on?: string;
  user?: { uri?: string; name?: string; link?: string; pictures?: { sizes?: { width?: number; link?: string }[] } | null } | null;
  metadata?: { connections?: { replies?: { total?: number } } };
}

export function vimeoComments(apiUrl: string): NonNullable<NetworkCapabilities['comments']> {
  return {
    async list(session, post, options) {
      const client = clientOf(apiUrl, session);
      const page = await commentsPage(client, post, options.cursor);
      const items = page.items as VimeoCommentObject[];
      const replies = options.includeReplies ? await Promise.all(items.map((c) => repliesOf(client, c))) : [];
      return { items: items.map((c, i) => ({ ...replyOf(c), ...(options.includeReplies ? { replies: replies[i]! } : {}) })), ...optionalNext(page.next) };
    },
    async reply(session, post, text, parentCommentId) {
      if (!text.trim()) throw new PublishError('permanent', 'vimeo: a comment needs text', undefined, 'invalid');
      if (parentCommentId !== undefined && !/^\d+$/.test(parentCommentId)) {
        throw new PublishError('permanent', `vimeo: "${parentCommentId}" is not a Vimeo comment id`, undefined, 'invalid');
      }
      const uri = await clientOf(apiUrl, session).comment(videoUriOf(post), text, parentCommentId);
      return { replyId: idOf(uri) };
    },
    /** The deprecated shape: Vimeo's comment objects, untouched, a page at a time. */
    legacy: async (session, post, options) => commentsPage(clientOf(apiUrl, session), post, options.cursor),
  };
}

async function commentsPage(client: VimeoClient, post: PublishedPost, cursor: string | undefined): Promise<Page<unknown>> {
  const page = pageOf(cursor);
  const { data, hasNext } = await client.rawPage(`${videoUriOf(post)}/comments`, page, PER_PAGE, { direction: 'desc' });
  return { items: data, ...(hasNext ? { next: String(page + 1) } : {}) };
}

async function repliesOf(client: VimeoClient, comment: VimeoCommentObject): Promise<Reply[]> {
  if (!comment.metadata?.connections?.replies?.total) return [];
  const out: Reply[] = [];
  for (let page = 1, more = true; more && page <= MAX_REPLY_PAGES; page++) {
    const { data, hasNext } = await client.rawPage(`${comment.uri}/replies`, page, PER_PAGE, { direction: 'asc' });
    out.push(...(data as VimeoCommentObject[]).map(replyOf));
    more = hasNext;
  }
  return out;
}

/** §1.1: id = last segment of uri, author = user.uri, the largest picture, user.link. */
export function replyOf(comment: VimeoCommentObject): Reply {
  const user = comment.user ?? null;
  const sizes = user?.pictures?.sizes ?? [];
  const largest = sizes.reduce<{ width?: number; link?: string } | undefined>((best, s) => ((s.width ?? 0) > (best?.width ?? -1) ? s : best), undefined);
  return {
    id: idOf(comment.uri),
    author: user?.uri ?? '',
    author_name: user?.name ?? null,
    ...(largest?.link ? { author_avatar_url: largest.link } : {}),
    ...(user?.link ? { author_profile_url: user.link } : {}),
    text: comment.text ?? '',
    created_at: comment.created_on ?? null,
    platform_specific: { uri: comment.uri, reply_count: comment.metadata?.connections?.replies?.total ?? 0 },
  };
}

const optionalNext = (next: string | undefined) => (next === undefined ? {} : { next });
