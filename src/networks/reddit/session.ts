// The Reddit client a capability calls with: the account's token and its User-Agent (client.ts).
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { RedditClient } from './client.ts';

export function clientOf(apiUrl: string, session: AccountSession): RedditClient {
  const { account } = session;
  if (!account.accessToken) throw new PublishError('auth', 'reddit: the account has no access token; reconnect it', undefined, 'auth');
  return new RedditClient(apiUrl, account.accessToken, account.username);
}

/** A t3_/t1_ fullname from what Crier stores or a client sends: the fullname itself, or a bare base-36 id. */
export function fullname(kind: 't1' | 't3', id: string): string {
  const bare = id.replace(/^t[13]_/, '');
  if (!/^[a-z0-9]{1,13}$/i.test(bare)) throw new PublishError('permanent', `reddit: "${id}" is not a Reddit ${kind === 't1' ? 'comment' : 'post'} id`, undefined, 'invalid');
  return `${kind}_${bare}`;
}
