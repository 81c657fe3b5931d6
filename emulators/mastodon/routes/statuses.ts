// Statuses (https://docs.joinmastodon.org/methods/statuses/):
//  POST /api/v1/statuses: `status`, `media_ids[]`, `poll[options][]`, `poll[expires_in]`,
//    `poll[multiple]`, `poll[hide_totals]`, `in_reply_to_id`, `sensitive`, `spoiler_text`,
//    `visibility`, `language`; the `Idempotency-Key` header: "Provide this header with any arbitrary
//    string to prevent duplicate submissions of the same status. Consider using a hash or UUID generated
//    client-side. Idempotency keys are stored for up to 1 hour." A repeated key answers the status the
//    first request made. `status` "can be ommitted if media_ids[] are provided"; "If provided, media_ids
//    cannot be used" (poll). 422 on a refusal, 404 on an `in_reply_to_id` that does not exist.
//  GET /api/v1/statuses/:id, DELETE /api/v1/statuses/:id (the deleted Status with its source `text`).
//  GET /api/v1/statuses/:id/context (https://docs.joinmastodon.org/methods/statuses/#context): the
//    Context entity (https://docs.joinmastodon.org/entities/Context/), `ancestors` from the top of the
//    thread down and `descendants` depth-first, each status the viewer may see.
//  PUT /api/v1/statuses/:id (https://docs.joinmastodon.org/methods/statuses/#edit): `status`,
//    `spoiler_text`, `sensitive`, `language`, `media_ids[]`, `poll[...]`. Mastodon's controller finds
//    the status among the token's account's own (`Status.where(account: current_account).find`), so
//    another's status is 404 "Record not found"; UpdateStatusService replaces what the request carries
//    and what it omits: no `media_ids` detaches the media, no `poll` removes the poll, no
//    `spoiler_text` clears the warning (sensitive then follows `sensitive`); `language` is kept when
//    omitted. A request changing nothing answers the status as it was, without `edited_at`.
import type { Reply } from '../../shared/http.ts';
import { statusEntity } from '../entities.ts';
import { error, notAllowed, recordNotFound, unprocessable } from '../errors.ts';
import { nextId, type Account, type MastodonWorld, type StoredPoll, type StoredStatus } from '../state.ts';
import { bool, statusLength, str, strings, type Params } from '../validate.ts';
import { isPlainObject } from '../../shared/http.ts';

const KEY_LIFETIME_MS = 60 * 60_000;
const VISIBILITIES = new Set(['public', 'unlisted', 'private', 'direct']);

export function createStatus(world: MastodonWorld, account: Account, params: Params, idempotencyKey: string | undefined): Reply {
  const keyed = idempotencyKey ? world.idempotency.get(`${account.id}:${idempotencyKey}`) : undefined;
  if (keyed && world.clock.now() - keyed.at < KEY_LIFETIME_MS) return { status: 200, body: statusEntity(world, world.statuses.get(keyed.statusId)!) };
  const built = buildStatus(world, account, params, idempotencyKey ?? null);
  if ('status' in built && typeof built.status === 'number') return built as Reply;
  const status = built as StoredStatus;
  world.statuses.set(status.id, status);
  for (const id of status.mediaIds) world.media.get(id)!.statusId = status.id;
  if (idempotencyKey) world.idempotency.set(`${account.id}:${idempotencyKey}`, { statusId: status.id, at: world.clock.now() });
  return { status: 200, body: statusEntity(world, status) };
}

/** The status the parameters describe, or the refusal. */
function buildStatus(world: MastodonWorld, account: Account, params: Params, idempotencyKey: string | null): StoredStatus | Reply {
  const v = params.values;
  const text = str(v.status) ?? '';
  const spoilerText = str(v.spoiler_text) ?? '';
  const mediaIds = strings(v.media_ids);
  const config = world.configuration;
  const visibility = str(v.visibility) ?? 'public';
  if (!VISIBILITIES.has(visibility)) return unprocessable(`Validation failed: Visibility is not included in the list`);
  const pollParams = isPlainObject(v.poll) ? v.poll : undefined;
  if (mediaIds.length > config.statuses.max_media_attachments || (mediaIds.length && pollParams)) return unprocessable(`Cannot attach more than ${config.statuses.max_media_attachments} files`);
  // Only the account's own media not yet attached are taken (others are ignored, as Mastodon does).
  const media = mediaIds.map((id) => world.media.get(id)).filter((m) => m && m.accountId === account.id && m.statusId === null);
  if (media.some((m) => m!.held || m!.pendingPolls > 0)) return unprocessable('Cannot attach files that have not finished processing. Try again in a moment!');
  if (!text.trim() && !media.length) return unprocessable("Validation failed: Text can't be blank");
  if (statusLength(text, spoilerText, config.statuses.characters_reserved_per_url) > config.statuses.max_characters) {
    return unprocessable(`Validation failed: Text character limit of ${config.statuses.max_characters} exceeded`);
  }
  const inReplyToId = str(v.in_reply_to_id) ?? null;
  const parent = inReplyToId === null ? undefined : world.statuses.get(inReplyToId);
  if (inReplyToId !== null && (!parent || parent.deleted)) return error(404, 'Record not found');
  const poll = pollParams ? pollOf(world, pollParams) : null;
  if (poll && 'status' in poll) return poll;
  return {
    id: nextId(world), accountId: account.id, text, spoilerText, visibility: visibility as StoredStatus['visibility'],
    language: str(v.language) ?? null, sensitive: bool(v.sensitive), inReplyToId, mediaIds: media.map((m) => m!.id),
    poll, createdAt: world.clock.iso(), idempotencyKey, deleted: false,
  };
}

/** The poll, refused as Poll's validations refuse it (options count, length, duplicates, duration). */
function pollOf(world: MastodonWorld, p: Record<string, unknown>): StoredStatus['poll'] | Reply {
  const limits = world.configuration.polls;
  const options = strings(p.options);
  const expiresIn = Number(str(p.expires_in));
  if (options.length < 2) return unprocessable('Validation failed: Poll options must have more than one item');
  if (options.length > limits.max_options) return unprocessable(`Validation failed: Poll options cannot contain more than ${limits.max_options} items`);
  if (options.some((o) => [...o].length > limits.max_characters_per_option)) return unprocessable(`Validation failed: Poll options cannot be longer than ${limits.max_characters_per_option} characters each`);
  if (new Set(options).size < options.length) return unprocessable('Validation failed: Poll options contain duplicate items');
  if (!Number.isFinite(expiresIn) || expiresIn < limits.min_expiration) return unprocessable('Validation failed: Poll expires at is too soon');
  if (expiresIn > limits.max_expiration) return unprocessable('Validation failed: Poll expires at is too far into the future');
  return {
    id: nextId(world), options, expiresAt: new Date(world.clock.now() + expiresIn * 1000).toISOString(), multiple: bool(p.multiple), hideTotals: bool(p.hide_totals),
  };
}

/**
 * Whether `viewer` may see `status` (invented, simplified: there is no follower graph or mention
 * parsing here): public and unlisted statuses, the viewer's own, and a followers-only or direct one
 * that answers a status of the viewer (standing for the mention Mastodon's clients put in a reply).
 */
export function visibleTo(world: MastodonWorld, viewer: Account, status: StoredStatus): boolean {
  if (status.deleted) return false;
  if (status.accountId === viewer.id || status.visibility === 'public' || status.visibility === 'unlisted') return true;
  const parent = status.inReplyToId ? world.statuses.get(status.inReplyToId) : undefined;
  return parent?.accountId === viewer.id;
}

export function showStatus(world: MastodonWorld, viewer: Account, id: string): Reply {
  const status = world.statuses.get(id);
  return status && visibleTo(world, viewer, status) ? { status: 200, body: statusEntity(world, status) } : recordNotFound();
}

export function statusContext(world: MastodonWorld, viewer: Account, id: string): Reply {
  const status = world.statuses.get(id);
  if (!status || !visibleTo(world, viewer, status)) return recordNotFound();
  const ancestors: StoredStatus[] = [];
  for (let up = status.inReplyToId ? world.statuses.get(status.inReplyToId) : undefined; up; up = up.inReplyToId ? world.statuses.get(up.inReplyToId) : undefined) ancestors.unshift(up);
  const children = (parentId: string) => [...world.statuses.values()].filter((s) => s.inReplyToId === parentId).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const descendants: StoredStatus[] = [];
  const walk = (parentId: string) => {
    for (const child of children(parentId)) {
      descendants.push(child);
      walk(child.id);
    }
  };
  walk(status.id);
  const seen = (list: StoredStatus[]) => list.filter((s) => visibleTo(world, viewer, s)).map((s) => statusEntity(world, s));
  return { status: 200, body: { ancestors: seen(ancestors), descendants: seen(descendants) } };
}

export function editStatus(world: MastodonWorld, account: Account, id: string, params: Params): Reply {
  const status = world.statuses.get(id);
  if (!status || status.deleted || status.accountId !== account.id) return recordNotFound();
  const v = params.values;
  const config = world.configuration;
  const spoilerText = str(v.spoiler_text) ?? '';
  const text = (str(v.status) ?? '').trim() ? str(v.status)! : spoilerText;
  const mediaIds = strings(v.media_ids);
  const pollParams = isPlainObject(v.poll) ? v.poll : undefined;
  if (mediaIds.length > config.statuses.max_media_attachments || (mediaIds.length && pollParams)) return unprocessable(`Cannot attach more than ${config.statuses.max_media_attachments} files`);
  const media = mediaIds.map((m) => world.media.get(m)).filter((m) => m && m.accountId === account.id && (m.statusId === null || m.statusId === status.id));
  if (media.some((m) => m!.held || m!.pendingPolls > 0)) return unprocessable('Cannot attach files that have not finished processing. Try again in a moment!');
  if (!text.trim() && !media.length) return unprocessable("Validation failed: Text can't be blank");
  if (statusLength(text, spoilerText, config.statuses.characters_reserved_per_url) > config.statuses.max_characters) {
    return unprocessable(`Validation failed: Text character limit of ${config.statuses.max_characters} exceeded`);
  }
  const poll = pollParams ? editedPoll(world, status.poll, pollParams) : null;
  if (poll && 'status' in poll) return poll;
  const next = { text, spoilerText, sensitive: bool(v.sensitive) || spoilerText !== '', language: str(v.language) ?? status.language, mediaIds: media.map((m) => m!.id), poll };
  const changed = next.text !== status.text || next.spoilerText !== status.spoilerText || next.sensitive !== status.sensitive || next.language !== status.language
    || next.mediaIds.join() !== status.mediaIds.join() || JSON.stringify(next.poll) !== JSON.stringify(status.poll);
  if (!changed) return { status: 200, body: statusEntity(world, status) };
  Object.assign(status, next, { editedAt: world.clock.iso() });
  for (const m of media) m!.statusId = status.id;
  return { status: 200, body: statusEntity(world, status) };
}

/**
 * The poll an edit sends: the same options and `multiple` keep the poll (and its votes); its end is
 * `expires_in` from now. Poll's duration checks run on create only (PollValidator `on: :create`).
 */
function editedPoll(world: MastodonWorld, previous: StoredPoll | null, p: Record<string, unknown>): StoredPoll | Reply {
  const limits = world.configuration.polls;
  const options = strings(p.options);
  const expiresIn = Number(str(p.expires_in));
  if (options.length < 2) return unprocessable('Validation failed: Poll options must have more than one item');
  if (options.length > limits.max_options) return unprocessable(`Validation failed: Poll options cannot contain more than ${limits.max_options} items`);
  if (!Number.isFinite(expiresIn) || expiresIn < 0) return unprocessable('Validation failed: Poll expires at is too soon');
  return {
    id: previous?.id ?? nextId(world), options, expiresAt: new Date(world.clock.now() + expiresIn * 1000).toISOString(), multiple: bool(p.multiple), hideTotals: bool(p.hide_totals),
  };
}

export function deleteStatus(world: MastodonWorld, account: Account, id: string): Reply {
  const status = world.statuses.get(id);
  if (!status || status.deleted) return recordNotFound();
  if (status.accountId !== account.id) return notAllowed();
  status.deleted = true;
  return { status: 200, body: statusEntity(world, status, true) };
}
