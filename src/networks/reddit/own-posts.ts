// The account's own submissions, newest first (imports, reconcile): GET /user/{name}/submitted
// (scope history), 100 a page, Reddit's `after` as the cursor. Reddit cannot filter by date: pages
// stop once one reaches back before `since`. Galleries, images and videos are listed as unsupported
// (Crier publishes only text and link posts to Reddit), crossposts too (another post's content).
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { postUrl, type ListedSubmission } from './client.ts';
import { clientOf } from './session.ts';

const PAGE = 100;

export async function listOwnRedditPosts(apiUrl: string, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const client = clientOf(apiUrl, session);
  const page = await client.submitted(session.account.username, options.cursor, PAGE).catch((error: unknown) => {
    if (error instanceof PublishError && error.code === 'forbidden') {
      throw new PublishError('permanent', 'reddit: listing the account\'s submissions needs the "history" scope; reconnect the account to grant it', undefined, 'forbidden');
    }
    throw error;
  });
  const sinceSecs = options.since ? options.since.getTime() / 1000 : -Infinity;
  const untilSecs = options.until ? options.until.getTime() / 1000 : Infinity;
  const items = page.items.filter((s) => s.createdUtc >= sinceSecs && s.createdUtc <= untilSecs).map(ownPost);
  const reachedSince = page.items.some((s) => s.createdUtc < sinceSecs);
  return { items, ...(page.after && !reachedSince ? { next: page.after } : {}) };
}

function ownPost(s: ListedSubmission): OwnPost {
  const d = s.data;
  const selftext = typeof d.selftext === 'string' ? d.selftext : '';
  const link = d.is_self === false && typeof d.url === 'string' ? d.url : undefined;
  const mediaCount = mediaOf(d);
  const unsupported = d.crosspost_parent ? 'a crosspost of another submission'
    : mediaCount > 0 ? 'a gallery, image or video post (Crier publishes only text and link posts to Reddit)' : undefined;
  return {
    platformId: s.name,
    url: postUrl(`https://www.reddit.com${s.permalink}`, s.name),
    text: selftext ? `${s.title}\n\n${selftext}` : s.title,
    createdAt: s.createdUtc ? new Date(s.createdUtc * 1000).toISOString() : null,
    mediaCount,
    ref: { subreddit: s.subreddit, title: s.title, ...(link && mediaCount === 0 ? { url: link } : {}) },
    ...(unsupported ? { unsupported } : {}),
  };
}

/** A gallery's items, or one for an image or video post. */
function mediaOf(d: Record<string, unknown>): number {
  const gallery = (d.gallery_data as { items?: unknown[] } | undefined)?.items;
  if (d.is_gallery && Array.isArray(gallery)) return gallery.length;
  return d.is_video === true || d.post_hint === 'image' || d.post_hint === 'hosted:video' ? 1 : 0;
}
