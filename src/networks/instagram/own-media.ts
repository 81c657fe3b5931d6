// The account's own media (imports) and deleting media Crier published, with the Page token of the
// account's Page (Instagram API with Facebook Login). GET /{ig-user-id}/media is cursor-paged only
// (no since/until): newest first, so paging stops at the first media older than `since`. DELETE
// /{ig-media-id} removes a whole post, Reel, Story or carousel (with the comments on it); Meta offers
// it on the Facebook Login path with instagram_manage_contents only (see README.md).
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { cursorParams, GraphApi, isoTime, nextCursor, node, type GraphList } from '../facebook/graph-api.ts';

const PAGE_SIZE = 50;

interface GraphMedia {
  id: string;
  caption?: string;
  media_type?: string;
  media_product_type?: string;
  permalink?: string;
  timestamp?: string;
  children?: { data?: unknown[] };
}

export function ownMedia(apiUrl: string) {
  return {
    async remove(session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
      return GraphApi.of('instagram', apiUrl, session).remove(post.root.platformId);
    },

    async ownPosts(session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
      const api = GraphApi.of('instagram', apiUrl, session);
      const list = await api.get<GraphList<GraphMedia>>(`${node(session.account.networkUniqueId)}/media`, {
        fields: 'id,caption,media_type,media_product_type,permalink,timestamp,children{id}',
        limit: String(PAGE_SIZE),
        ...cursorParams('instagram', options.cursor),
      });
      const all = (list.data ?? []).map((media) => ownPost(media, session.account.username));
      const since = options.since?.getTime();
      const until = options.until?.getTime();
      const at = (post: OwnPost) => (post.createdAt ? Date.parse(post.createdAt) : NaN);
      const items = all.filter((post) => !(at(post) < (since ?? -Infinity)) && !(at(post) > (until ?? Infinity)));
      // Newest first: once a media is older than `since`, every later page is too.
      const reachedSince = since !== undefined && all.some((post) => at(post) < since);
      const next = reachedSince ? undefined : nextCursor(list);
      return { items, ...(next ? { next } : {}) };
    },
  };
}

function ownPost(media: GraphMedia, username: string): OwnPost {
  const post: OwnPost = {
    platformId: media.id,
    // Graph gives published media a permalink; without one (copyright-muted media) the profile stands in.
    url: media.permalink ?? `https://www.instagram.com/${username}/`,
    text: media.caption ?? '',
    createdAt: isoTime(media.timestamp),
    mediaCount: media.media_type === 'CAROUSEL_ALBUM' ? media.children?.data?.length ?? 0 : 1,
  };
  if (media.media_product_type === 'AD') post.unsupported = 'an ad, not a post of the account';
  return post;
}
