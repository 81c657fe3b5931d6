// What every capability starts from: the account's instance client, on the fetch remove.ts uses (the
// operator's configured instance directly, any other through the session's SSRF guard), and the
// account's id on its instance. The Status fields the engagement side reads
// (https://docs.joinmastodon.org/entities/Status/).
import type { AccountSession } from '../capabilities.ts';
import { PublishError } from '../../core/errors.ts';
import { MastodonClient } from './client.ts';
import { instanceFetch } from './instance.ts';

export function clientFor(trusted: string | undefined, session: AccountSession): MastodonClient {
  const { credential, serviceUrl } = session.account;
  if (!credential || !serviceUrl) throw new PublishError('auth', 'mastodon: no instance or access token is stored for the account; connect it again');
  return new MastodonClient(serviceUrl, credential, instanceFetch(serviceUrl, trusted, session.userFetch));
}

/** The account's id on its instance: networkUniqueId is `host:<id>` (connect.ts), the host possibly with a port. */
export function accountIdOf(session: AccountSession): string {
  const unique = session.account.networkUniqueId;
  return unique.slice(unique.lastIndexOf(':') + 1);
}

export const statusPath = (id: string) => `/api/v1/statuses/${encodeURIComponent(id)}`;

export interface StatusAccount {
  id: string;
  acct: string;
  username?: string;
  display_name?: string;
  avatar?: string;
  url?: string | null;
}

export interface StatusView {
  id: string;
  url: string | null;
  uri: string;
  created_at: string;
  edited_at?: string | null;
  in_reply_to_id: string | null;
  in_reply_to_account_id?: string | null;
  visibility: 'public' | 'unlisted' | 'private' | 'direct';
  content: string;
  spoiler_text: string;
  sensitive: boolean;
  language: string | null;
  account: StatusAccount;
  media_attachments: { id: string }[];
  replies_count?: number;
  reblogs_count?: number;
  favourites_count?: number;
  quotes_count?: number;
  reblog?: StatusView | null;
  poll?: { options: { title: string; votes_count?: number | null }[]; expires_at: string | null; multiple: boolean } | null;
}
