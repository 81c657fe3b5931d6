// The LinkedIn client a capability calls with, and whom the account acts as (its person or organization URN).
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { LinkedInClient } from './client.ts';

export function clientOf(apiUrl: string, session: AccountSession): LinkedInClient {
  if (!session.account.accessToken) throw new PublishError('auth', 'linkedin: the account has no access token; reconnect it', undefined, 'auth');
  return new LinkedInClient(apiUrl, session.account.accessToken);
}

/** urn:li:person:… for a member account, urn:li:organization:… for a page (social_accounts.network_unique_id). */
export const actorOf = (session: AccountSession): string => session.account.networkUniqueId;
