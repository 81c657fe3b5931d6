// The location's posts after publishing: deleting one (localPosts.delete by its name) and listing them
// for imports and crash reconciliation (localPosts.list, pageToken-paged). Posts have no comments
// (reviews are the location's, not a post's: engagement.md §10.3), so nothing reads or answers them.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { GoogleBusinessClient, type LocalPost } from './client.ts';

/** Google's largest page. */
const PAGE = 100;
const LOCATION_NAME = /^accounts\/[^/]+\/locations\/[^/]+$/;

/** A client for the account's location ("accounts/{a}/locations/{l}") on `apiUrl`. */
export function clientFor(apiUrl: string, session: AccountSession): GoogleBusinessClient {
  const { accessToken, networkUniqueId } = session.account;
  if (!accessToken) throw new PublishError('auth', 'google_business: the account has no access token; reconnect it', undefined, 'auth');
  if (!LOCATION_NAME.test(networkUniqueId)) {
    throw new PublishError('permanent', `google_business: the account names no location ("${networkUniqueId}"); reconnect it and pick the location`, undefined, 'invalid');
  }
  return new GoogleBusinessClient(apiUrl, accessToken, networkUniqueId);
}

/** The post is one localPost (posts take no replies): one DELETE of its name; gone already is `absent`. */
export async function removeLocalPost(apiUrl: string, session: AccountSession, post: PublishedPost): Promise<'removed' | 'absent'> {
  const client = clientFor(apiUrl, session);
  const name = post.root.platformId;
  // Only a post of the account's own location: a name from elsewhere is never sent.
  if (!name.startsWith(`${session.account.networkUniqueId}/localPosts/`)) {
    throw new PublishError('permanent', `google_business: ${name} is not a post of the account's location ${session.account.networkUniqueId}`, undefined, 'invalid');
  }
  try {
    await client.delete(name);
    return 'removed';
  } catch (error) {
    if (error instanceof PublishError && error.code === 'not_found') return 'absent';
    throw error;
  }
}

/** One page of the location's posts; Google filters them by no date, so `since`/`until` are the caller's. */
export async function ownLocalPosts(apiUrl: string, session: AccountSession, options: { cursor?: string }): Promise<Page<OwnPost>> {
  const page = await clientFor(apiUrl, session).list(options.cursor, PAGE);
  return { items: page.posts.map(ownPostOf), ...(page.next ? { next: page.next } : {}) };
}

function ownPostOf(post: LocalPost): OwnPost {
  return {
    platformId: post.name,
    url: post.searchUrl ?? '',
    text: post.summary ?? '',
    createdAt: post.createTime ?? null,
    mediaCount: post.media?.length ?? 0,
    ref: { topicType: post.topicType ?? null, state: post.state ?? null, ...(post.event?.title ? { eventTitle: post.event.title } : {}) },
    ...(post.state === 'REJECTED' ? { unsupported: 'Google rejected this post (content policy): it is not shown on the profile' } : {}),
  };
}
