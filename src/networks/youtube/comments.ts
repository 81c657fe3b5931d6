// A YouTube video's comments as the spec's Reply records (engagement.md §1.1, §8.3): one tier deep —
// commentThreads.list (newest first, part snippet,replies) gives the top-level comments and a subset
// of their replies; when a thread has more replies than it embeds, comments.list?parentId= reads them
// all. Replies are given oldest first (a conversation reads in order). Answering: commentThreads.insert
// for the video, comments.insert for a comment — an answer to a reply goes to its thread's top-level
// comment (YouTube threads are one tier), found with comments.list?id= (1 unit).
import type { AccountSession, NetworkCapabilities, Reply } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import type { YoutubeClient } from './client.ts';
import { checkedCommentId, checkedCursor, videoIdOf } from './session.ts';

/** commentThreads.list and comments.list take up to 100 a page. */
const PAGE = '100';
/** Pages of one thread's replies read at most. */
const MAX_REPLY_PAGES = 20;

interface CommentResource {
  id: string;
  snippet?: {
    videoId?: string;
    parentId?: string;
    textDisplay?: string;
    textOriginal?: string;
    authorDisplayName?: string;
    authorProfileImageUrl?: string;
    authorChannelUrl?: string;
    authorChannelId?: { value?: string };
    likeCount?: number;
    publishedAt?: string;
    updatedAt?: string;
  };
}

interface ThreadResource {
  id: string;
  snippet?: { topLevelComment?: CommentResource; totalReplyCount?: number };
  replies?: { comments?: CommentResource[] };
}

/** A call with the account's client, its quota units charged where the account shares the pool (session.ts metered). */
type WithClient = <T>(session: AccountSession, work: (client: YoutubeClient) => Promise<T>) => Promise<T>;

export function youtubeComments(withClient: WithClient): NonNullable<NetworkCapabilities['comments']> {
  return {
    list: (session, post, options) => withClient(session, async (client) => {
      const page = await client.list('commentThreads', {
        part: options.includeReplies ? 'snippet,replies' : 'snippet', videoId: videoIdOf(post), maxResults: PAGE, order: 'time', textFormat: 'plainText',
        pageToken: checkedCursor(options.cursor),
      });
      const threads = (page.items as unknown as ThreadResource[]).filter((t) => t.snippet?.topLevelComment);
      const items = await Promise.all(threads.map(async (thread) => ({
        ...replyOf(thread.snippet!.topLevelComment!, { total_reply_count: thread.snippet!.totalReplyCount ?? 0 }),
        ...(options.includeReplies ? { replies: (await repliesOf(client, thread)).map((c) => replyOf(c)) } : {}),
      })));
      return { items, ...(page.next ? { next: page.next } : {}) };
    }),
    async reply(session, post, text, parentCommentId) {
      if (!text.trim()) throw new PublishError('permanent', 'youtube: a comment needs text', undefined, 'invalid');
      return withClient(session, async (client) => {
        const videoId = videoIdOf(post);
        if (parentCommentId === undefined) return { replyId: (await client.comment(videoId, text)).commentId };
        const top = await topLevelOf(client, videoId, checkedCommentId(parentCommentId));
        return { replyId: await client.reply(top, text) };
      });
    },
  };
}

/** The thread's replies: the embedded ones when they are all there, else every page of comments.list. */
async function repliesOf(client: YoutubeClient, thread: ThreadResource): Promise<CommentResource[]> {
  const embedded = thread.replies?.comments ?? [];
  const total = thread.snippet?.totalReplyCount ?? 0;
  let replies = embedded;
  if (embedded.length < total) {
    replies = [];
    let pageToken: string | undefined;
    for (let read = 0; read < MAX_REPLY_PAGES; read++) {
      const page = await client.list('comments', { part: 'snippet', parentId: thread.snippet!.topLevelComment!.id, maxResults: PAGE, textFormat: 'plainText', pageToken });
      replies.push(...(page.items as unknown as CommentResource[]));
      if (!(pageToken = page.next)) break;
    }
  }
  return [...replies].sort((a, b) => (a.snippet?.publishedAt ?? '').localeCompare(b.snippet?.publishedAt ?? ''));
}

/** The top-level comment an answer to `commentId` goes under; not_found unless it is a comment of this video. */
async function topLevelOf(client: YoutubeClient, videoId: string, commentId: string): Promise<string> {
  const { items } = await client.list('comments', { part: 'snippet', id: commentId, textFormat: 'plainText' });
  const comment = items[0] as unknown as CommentResource | undefined;
  if (!comment || comment.snippet?.videoId !== videoId) {
    throw new PublishError('permanent', `youtube: comment ${commentId} is not a comment of video ${videoId}`, undefined, 'not_found');
  }
  return comment.snippet.parentId ?? comment.id;
}

/** §1.1: id, authorChannelId.value, authorDisplayName (the @handle it carries), textDisplay, likeCount. */
export function replyOf(comment: CommentResource, extra: Record<string, unknown> = {}): Reply {
  const s = comment.snippet ?? {};
  const name = s.authorDisplayName ?? null;
  return {
    id: comment.id,
    author: s.authorChannelId?.value ?? '',
    author_name: name,
    ...(name?.startsWith('@') ? { author_username: name } : {}),
    ...(s.authorProfileImageUrl ? { author_avatar_url: s.authorProfileImageUrl } : {}),
    ...(s.authorChannelUrl ? { author_profile_url: s.authorChannelUrl } : {}),
    text: s.textDisplay ?? s.textOriginal ?? '',
    created_at: s.publishedAt ?? null,
    ...(typeof s.likeCount === 'number' ? { like_count: s.likeCount } : {}),
    platform_specific: { ...(s.parentId ? { parent_id: s.parentId } : {}), ...(s.updatedAt ? { updated_at: s.updatedAt } : {}), ...extra },
  };
}
