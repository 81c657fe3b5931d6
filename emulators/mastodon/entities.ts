// The entities as the API documents them, rendered from the state:
//  Account, CredentialAccount  https://docs.joinmastodon.org/entities/Account/
//  Status                      https://docs.joinmastodon.org/entities/Status/
//  MediaAttachment             https://docs.joinmastodon.org/entities/MediaAttachment/
//  Poll                        https://docs.joinmastodon.org/entities/Poll/
//  Instance (v2)               https://docs.joinmastodon.org/entities/Instance/
import type { Account, MastodonWorld, StoredMedia, StoredPoll, StoredStatus } from './state.ts';

export function accountEntity(world: MastodonWorld, account: Account): Record<string, unknown> {
  const url = `${world.origin}/@${account.username}`;
  const statuses = [...world.statuses.values()].filter((s) => s.accountId === account.id && !s.deleted);
  return {
    id: account.id, username: account.username, acct: account.username, display_name: account.displayName,
    locked: false, bot: false, discoverable: true, group: false, created_at: account.createdAt, note: '', url, uri: `${world.origin}/users/${account.username}`,
    avatar: `${world.origin}/avatars/original/missing.png`, avatar_static: `${world.origin}/avatars/original/missing.png`,
    header: `${world.origin}/headers/original/missing.png`, header_static: `${world.origin}/headers/original/missing.png`,
    followers_count: account.followersCount ?? 0, following_count: account.followingCount ?? 0, statuses_count: statuses.length, last_status_at: statuses.at(-1)?.createdAt.slice(0, 10) ?? null,
    emojis: [], fields: [],
  };
}

/** verify_credentials adds `source` (and `role`) to the Account. */
export function credentialAccountEntity(world: MastodonWorld, account: Account): Record<string, unknown> {
  return {
    ...accountEntity(world, account),
    source: { privacy: 'public', sensitive: false, language: '', note: '', fields: [], follow_requests_count: 0 },
    role: { id: '-99', name: '', permissions: '0', color: '', highlighted: false },
  };
}

export function mediaEntity(world: MastodonWorld, media: StoredMedia): Record<string, unknown> {
  const processing = media.pendingPolls > 0 || media.held;
  return {
    id: media.id, type: media.type,
    // "url: null while the media is still being processed" (MediaAttachment, methods/media/#v2).
    url: processing ? null : `${world.origin}/system/media_attachments/files/${media.id}/original/${encodeURIComponent(media.filename)}`,
    preview_url: `${world.origin}/system/media_attachments/files/${media.id}/small/${encodeURIComponent(media.filename)}`,
    remote_url: null, meta: {}, description: media.description, blurhash: null,
  };
}

function pollEntity(poll: StoredPoll, now: number): Record<string, unknown> {
  return {
    id: poll.id, expires_at: poll.expiresAt, expired: Date.parse(poll.expiresAt) <= now, multiple: poll.multiple,
    votes_count: 0, voters_count: poll.multiple ? 0 : null,
    // hide_totals: "Hide vote counts until the poll ends": votes_count is null until then.
    options: poll.options.map((title) => ({ title, votes_count: poll.hideTotals ? null : 0 })), emojis: [], voted: false, own_votes: [],
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A plain text as Mastodon renders it (TextFormatter, Rails' simple_format): paragraphs at blank
 * lines, a single line break as `<br />`, everything escaped; links, mentions and hashtags stay text.
 */
const htmlOf = (text: string) => text.split(/\n\s*\n/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br />')}</p>`).join('');

/** `text` (the source) is on a deleted status only: DELETE /api/v1/statuses/:id answers it for "delete and redraft". */
export function statusEntity(world: MastodonWorld, status: StoredStatus, withSource = false): Record<string, unknown> {
  const account = world.accounts.get(status.accountId)!;
  const parent = status.inReplyToId ? world.statuses.get(status.inReplyToId) : undefined;
  const live = [...world.statuses.values()].filter((s) => !s.deleted);
  const reblogged = status.reblogOfId ? world.statuses.get(status.reblogOfId) : undefined;
  return {
    id: status.id, created_at: status.createdAt,
    in_reply_to_id: status.inReplyToId, in_reply_to_account_id: parent?.accountId ?? null,
    sensitive: status.sensitive, spoiler_text: status.spoilerText, visibility: status.visibility, language: status.language,
    uri: `${world.origin}/users/${account.username}/statuses/${status.id}`, url: `${world.origin}/@${account.username}/${status.id}`,
    // The counts as Status documents them: direct replies, boosts, favourites.
    replies_count: live.filter((s) => s.inReplyToId === status.id).length,
    reblogs_count: live.filter((s) => s.reblogOfId === status.id).length,
    favourites_count: status.favouritedBy?.length ?? 0,
    edited_at: status.editedAt ?? null, favourited: false, reblogged: false, muted: false, bookmarked: false, pinned: false,
    content: status.text ? htmlOf(status.text) : '',
    ...(withSource ? { text: status.text } : {}),
    filtered: [], reblog: reblogged ? statusEntity(world, reblogged) : null, application: { name: 'Crier emulator client', website: null },
    account: accountEntity(world, account),
    media_attachments: status.mediaIds.map((id) => mediaEntity(world, world.media.get(id)!)),
    mentions: [], tags: [], emojis: [], card: null,
    poll: status.poll ? pollEntity(status.poll, world.clock.now()) : null,
  };
}

export function instanceEntity(world: MastodonWorld): Record<string, unknown> {
  // LOCAL_DOMAIN: the handles' domain, which need not be the host serving the API.
  const domain = world.domain ?? new URL(world.origin).host;
  return {
    domain, title: 'Mastodon emulator', version: '4.3.0', source_url: 'https://github.com/mastodon/mastodon',
    description: 'A local stand-in for a Mastodon instance (Crier tests and sandbox).',
    usage: { users: { active_month: world.accounts.size } },
    thumbnail: { url: `${world.origin}/packs/media/images/preview.png` },
    languages: ['en'],
    configuration: {
      urls: { streaming: world.origin.replace(/^http/, 'ws') },
      accounts: { max_featured_tags: 10 },
      ...world.configuration,
      translation: { enabled: false },
    },
    registrations: { enabled: false, approval_required: false, message: null },
    contact: { email: '', account: null },
    rules: [],
  };
}
