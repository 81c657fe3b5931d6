// The Page's own posts (imports) and deleting one Crier published: GET /{page-id}/published_posts
// (the Page's posts only, not visitors' as /feed has), newest first, since/until as Unix seconds,
// Graph's paging.next as the cursor; DELETE /{post-id} (a video or Reel by its video id, as the
// adapter stored it), whose comments go with it.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { absolutePermalink } from './client.ts';
import { cursorParams, GraphApi, isoTime, nextCursor, node, unixSeconds, type GraphList } from './graph-api.ts';

/** Graph's largest page on the posts edges. */
const PAGE_SIZE = 100;

interface GraphPost {
  id: string;
  message?: string;
  created_time?: string;
  permalink_url?: string;
  status_type?: string;
  attachments?: { data?: { media_type?: string; subattachments?: { data?: unknown[] } }[] };
}

export function pagePosts(apiUrl: string) {
  return {
    async remove(session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
      return GraphApi.of('facebook', apiUrl, session).remove(post.root.platformId);
    },

    async ownPosts(session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
      const api = GraphApi.of('facebook', apiUrl, session);
      const list = await api.get<GraphList<GraphPost>>(`${node(session.account.networkUniqueId)}/published_posts`, {
        fields: 'id,message,created_time,permalink_url,status_type,attachments{media_type,subattachments}',
        limit: String(PAGE_SIZE),
        ...(options.since ? { since: unixSeconds(options.since) } : {}),
        ...(options.until ? { until: unixSeconds(options.until) } : {}),
        ...cursorParams('facebook', options.cursor),
      });
      const next = nextCursor(list);
      return { items: (list.data ?? []).map(ownPost), ...(next ? { next } : {}) };
    },
  };
}

function ownPost(post: GraphPost): OwnPost {
  return {
    platformId: post.id,
    url: absolutePermalink(post.permalink_url) ?? `https://www.facebook.com/${post.id}`,
    text: post.message ?? '',
    createdAt: isoTime(post.created_time),
    mediaCount: mediaCountOf(post),
  };
}

/** Photos of an album post are its subattachments; a photo, video or Reel is one; a text or link post none. */
function mediaCountOf(post: GraphPost): number {
  const attachment = post.attachments?.data?.[0];
  if (!attachment) return 0;
  const sub = attachment.subattachments?.data?.length ?? 0;
  if (sub) return sub;
  return ['photo', 'video', 'album'].includes(attachment.media_type ?? '') ? 1 : 0;
}
