// The profile's own posts for imports (user reference): GET /{user-id}/threads, newest first, 100 a
// page, `since`/`until` as Unix seconds, `after` cursors. Replies (GET /{user-id}/replies) are not
// posts of their own and are not listed. A repost of someone else's post (REPOST_FACADE) and an audio
// post are listed as unsupported: Crier cannot show them as posts of the account.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import { clientFor, graphPage, isoTime, profileUrl } from './session.ts';

/** User reference: `since` cannot be earlier than 1688540400 (Threads' API launch). */
const EARLIEST_SINCE_SECS = 1688540400;
const PAGE_SIZE = '100';
const FIELDS = 'id,media_type,permalink,text,timestamp,shortcode,children';

interface ThreadsListedPost {
  id: string;
  media_type?: string;
  permalink?: string;
  text?: string;
  timestamp?: string;
  children?: { data?: { id: string }[] };
}

const UNSUPPORTED: Record<string, string> = {
  REPOST_FACADE: 'a repost of another profile\'s post',
  AUDIO: 'an audio post (Crier publishes no audio)',
};

export async function ownPosts(apiUrl: string, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const client = clientFor(apiUrl, session);
  const secs = (date: Date | undefined) => (date ? String(Math.floor(date.getTime() / 1000)) : undefined);
  const since = options.since && options.since.getTime() / 1000 < EARLIEST_SINCE_SECS ? new Date(EARLIEST_SINCE_SECS * 1000) : options.since;
  const body = await client.read(`/${client.userId}/threads`, { fields: FIELDS, limit: PAGE_SIZE, since: secs(since), until: secs(options.until), after: options.cursor });
  const page = graphPage<ThreadsListedPost>(body);
  return { items: page.data.map((post) => ownPostOf(post, session.account.username)), ...(page.after ? { next: page.after } : {}) };
}

function ownPostOf(post: ThreadsListedPost, username: string): OwnPost {
  const type = post.media_type ?? 'TEXT_POST';
  const unsupported = UNSUPPORTED[type];
  return {
    platformId: post.id,
    // Threads omits the permalink of a post flagged for copyright: the profile stands in.
    url: post.permalink ?? profileUrl(username),
    text: post.text ?? '',
    createdAt: isoTime(post.timestamp),
    mediaCount: mediaCountOf(type, post),
    ...(unsupported ? { unsupported } : {}),
  };
}

function mediaCountOf(type: string, post: ThreadsListedPost): number {
  if (type === 'CAROUSEL_ALBUM') return post.children?.data?.length ?? 0;
  return type === 'IMAGE' || type === 'VIDEO' || type === 'AUDIO' ? 1 : 0;
}
