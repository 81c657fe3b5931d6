// The account's own posts, newest first (imports, reconcile): GET /rest/posts?q=author (the Posts
// API's finder), start/count paging, sortBy=CREATED. Organizations need r_organization_social with
// a posting role; a member's own posts need r_member_social, a restricted permission LinkedIn grants
// to few apps — its 403 is said as such. Reshares and content Crier cannot show are `unsupported`.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { fromLittle } from './commentary.ts';
import { actorOf, clientOf } from './session.ts';
import { encodeUrn, isOrganization } from './urn.ts';

const PAGE = 50;

interface PostElement {
  id: string;
  commentary?: string;
  createdAt?: number;
  publishedAt?: number;
  reshareContext?: unknown;
  content?: { media?: unknown; multiImage?: { images?: unknown[] }; article?: unknown; poll?: unknown; celebration?: unknown; carousel?: unknown };
}

export async function listOwnLinkedInPosts(apiUrl: string, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const author = actorOf(session);
  const start = options.cursor === undefined ? 0 : Number(options.cursor);
  if (!Number.isInteger(start) || start < 0) throw new PublishError('permanent', 'linkedin: the cursor is not one this list gave', undefined, 'invalid');
  const query = `q=author&author=${encodeUrn(author)}&count=${PAGE}&start=${start}&sortBy=CREATED`;
  const { body } = await clientOf(apiUrl, session).request({ url: `/rest/posts?${query}`, headers: { 'x-restli-method': 'FINDER' } }).catch((error: unknown) => {
    throw error instanceof PublishError && error.code === 'forbidden' ? scopeRefusal(author, error) : error;
  });
  const page = body as { elements?: PostElement[]; paging?: { total?: number; links?: { rel: string }[] } };
  const elements = page.elements ?? [];
  const time = (p: PostElement) => p.publishedAt ?? p.createdAt;
  const since = options.since?.getTime() ?? -Infinity;
  const until = options.until?.getTime() ?? Infinity;
  const items = elements.filter((p) => (time(p) ?? 0) >= since && (time(p) ?? 0) <= until).map(ownPost);
  const more = page.paging?.links?.some((l) => l.rel === 'next') ?? (page.paging?.total !== undefined ? start + elements.length < page.paging.total : elements.length === PAGE);
  const reachedSince = elements.some((p) => (time(p) ?? Infinity) < since);
  return { items, ...(more && !reachedSince && elements.length ? { next: String(start + elements.length) } : {}) };
}

function ownPost(p: PostElement): OwnPost {
  const at = p.publishedAt ?? p.createdAt;
  const content = p.content ?? {};
  const mediaCount = content.multiImage?.images?.length ?? (content.media ? 1 : 0);
  const unsupported = p.reshareContext ? 'a reshare of another post'
    : content.poll ? 'a poll' : content.celebration ? 'a celebration' : content.carousel ? 'a carousel' : undefined;
  return {
    platformId: p.id,
    url: `https://www.linkedin.com/feed/update/${p.id}/`,
    text: fromLittle(p.commentary ?? ''),
    createdAt: typeof at === 'number' ? new Date(at).toISOString() : null,
    mediaCount,
    ...(unsupported ? { unsupported } : {}),
  };
}

function scopeRefusal(author: string, error: PublishError): PublishError {
  const why = isOrganization(author)
    ? 'reading an organization\'s posts needs the r_organization_social permission and an ADMINISTRATOR, DIRECT_SPONSORED_CONTENT_POSTER or CONTENT_ADMINISTRATOR role on the page'
    : 'reading a member\'s own posts needs r_member_social, a restricted permission LinkedIn grants only to approved developers';
  return new PublishError('permanent', `linkedin: LinkedIn refused to list the posts (${error.message.replace(/^linkedin: /, '')}): ${why}`, undefined, 'forbidden');
}
