// The account's statuses for imports: GET /api/v1/accounts/:id/statuses
// (https://docs.joinmastodon.org/methods/accounts/#statuses), newest first, 40 a page (its largest),
// `exclude_replies` (which keeps the account's answers to itself: a thread's later statuses, left out
// here since they belong to the thread's first status), paged by `max_id` from the Link header's
// `rel="next"` (https://docs.joinmastodon.org/api/guidelines/#pagination), else the page's last id. A
// boost is another account's status: listed as unsupported.
import type { AccountSession, OwnPost, Page } from '../capabilities.ts';
import type { NetworkAnswer } from '../http.ts';
import { accountIdOf, clientFor, type StatusView } from './account-client.ts';
import { plainText } from './html.ts';

const PAGE = 40;

/** `max_id` of the Link header's next page. */
function nextMaxId(answer: NetworkAnswer): string | undefined {
  const next = (answer.header('link') ?? '').split(',').find((link) => /rel="?next"?/.test(link));
  const url = next ? /<([^>]+)>/.exec(next)?.[1] : undefined;
  if (!url) return undefined;
  try {
    return new URL(url).searchParams.get('max_id') ?? undefined;
  } catch {
    return undefined;
  }
}

function ownPostOf(status: StatusView, origin: string): OwnPost {
  const boosted = status.reblog;
  return {
    platformId: status.id,
    url: (boosted ?? status).url ?? (boosted ?? status).uri,
    text: plainText((boosted ?? status).content ?? ''),
    createdAt: status.created_at ?? null,
    mediaCount: (boosted ?? status).media_attachments?.length ?? 0,
    // As the adapter stores a published status's ref.
    ref: { instance: origin },
    ...(boosted ? { unsupported: `a boost of ${boosted.account.acct}'s status, not a status of the account` } : {}),
  };
}

export async function listOwnPosts(trusted: string | undefined, session: AccountSession, options: { since?: Date; until?: Date; cursor?: string }): Promise<Page<OwnPost>> {
  const client = clientFor(trusted, session);
  const query = new URLSearchParams({ limit: String(PAGE), exclude_replies: 'true', ...(options.cursor ? { max_id: options.cursor } : {}) });
  const answer = await client.answer({ path: `/api/v1/accounts/${encodeURIComponent(accountIdOf(session))}/statuses?${query}` });
  if (answer.status < 200 || answer.status >= 300) throw client.failureOf(answer);
  const statuses = answer.body as StatusView[];
  const inRange = (s: StatusView) => {
    const at = Date.parse(s.created_at);
    return !(options.since && at < options.since.getTime()) && !(options.until && at > options.until.getTime());
  };
  const items = statuses.filter((s) => s.reblog || s.in_reply_to_id === null).filter(inRange).map((s) => ownPostOf(s, client.origin));
  // Newest first: once a page reaches before `since`, the older pages are not wanted.
  const oldest = statuses.at(-1);
  const done = !oldest || (options.since !== undefined && Date.parse(oldest.created_at) < options.since.getTime());
  const next = done ? undefined : (nextMaxId(answer) ?? (statuses.length === PAGE ? oldest.id : undefined));
  return { items, ...(next ? { next } : {}) };
}
