// Publishing to a Mastodon account's instance: each container is a status (POST /api/v1/statuses:
// https://docs.joinmastodon.org/methods/statuses/#create), every later one a reply to the root
// (`in_reply_to_id`), with the block's content warning, visibility, language and sensitivity on each
// and its poll on the root. Replies go to the root, not to the container before, because the adapter
// protocol hands publishPart the root's ref alone: after a restart an earlier reply's id is not known,
// and a thread's shape must not depend on whether a worker restarted (Telegram and Bluesky do the same).
//
// Media are uploaded first (POST /api/v2/media, `description` the alt text); the instance answers 202
// while it processes a file, and GET /api/v1/media/:id answers 206 until it is done
// (https://docs.joinmastodon.org/methods/media/). The uploaded ids are a checkpoint of their own and
// processing is waited for in checkpointed steps (PublishWait), so a restart never uploads twice.
//
// Every status is sent with an Idempotency-Key chosen at reservation (statuses/#create: "Provide this
// header with any arbitrary string to prevent duplicate submissions of the same status [...] stored
// for up to 1 hour"): after a crash within the hour, sending again with the same key returns the
// status the instance already made instead of making another. Past the hour, reconcile reads the
// account's statuses since the reservation.
import { randomUUID } from 'node:crypto';
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { ContainerInput, PartRef } from '../../core/post.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import { reconcileErrors } from '../errors.ts';
import { mediaKind } from '../media-kind.ts';
import { MastodonClient, type MastodonMedia, type MastodonStatus } from './client.ts';
import { instanceFetch, instanceLimits } from './instance.ts';
import type { MastodonBlock } from './options.ts';
import { judgeWith, textsOf, type InstanceLimits } from './shape.ts';

const { cannotTell, orUnknown } = reconcileErrors('mastodon', "the account's statuses on its instance");

/** The instance keeps an Idempotency-Key an hour; a reconcile within this of the reservation sends again under it. */
const KEY_WINDOW_MS = 55 * 60_000;
/** Clocks differ: statuses this much older than the reservation still count as candidates. */
const CLOCK_MARGIN_MS = 60_000;

export interface Timing {
  /** The first wait before asking whether a file is processed; it doubles up to maxPollMs. */
  pollMs: number;
  maxPollMs: number;
  /** Processing longer than this fails the destination. */
  maxProcessingMs: number;
}

export interface MastodonAdapterOptions {
  /** The operator's configured instance (CRIER_MASTODON_BASE_URL), called without the SSRF guard. */
  trusted: string | undefined;
  timing?: Partial<Timing>;
}

/** One container's media on the instance: ids in media order, and which are processed. */
interface MediaCheckpoint {
  position: number;
  media: { id: string; ready: boolean }[];
  polls?: number;
  processingSince?: string;
}

export function createMastodonAdapter(options: MastodonAdapterOptions): NetworkAdapter {
  const timing: Timing = { pollMs: 1000, maxPollMs: 30_000, maxProcessingMs: 15 * 60_000, ...options.timing };
  return {
    network: 'mastodon',
    async prepare(input) {
      const token = input.account.credential;
      const origin = input.account.serviceUrl;
      if (!token || !origin) throw new PublishError('auth', 'mastodon: no instance or access token is stored for the account; connect it again');
      const client = new MastodonClient(origin, token, instanceFetch(origin, options.trusted, input.userFetch));
      const limits = await instanceLimits(client);
      judgeWith(input, limits);
      return preparedFor(client, input, limits, timing);
    },
  };
}

function preparedFor(client: MastodonClient, input: PublishInput, limits: InstanceLimits, timing: Timing): PreparedPublish {
  const block = (input.block ?? {}) as MastodonBlock;
  const texts = textsOf(input);
  const accountId = input.account.networkUniqueId.slice(input.account.networkUniqueId.lastIndexOf(':') + 1);
  const stored = (position: number): MediaCheckpoint | undefined => {
    const cp = input.checkpoint as MediaCheckpoint | undefined;
    return cp?.position === position ? cp : undefined;
  };

  function statusBody(position: number, mediaIds: string[], root: PartRef | undefined): Record<string, unknown> {
    const poll = position === 0 ? block.poll : undefined;
    return {
      status: texts[position],
      ...(mediaIds.length ? { media_ids: mediaIds } : {}),
      ...(poll ? { poll: { options: poll.options, expires_in: poll.expiresIn, multiple: poll.multiple ?? false, hide_totals: poll.hideTotals ?? false } } : {}),
      ...(root ? { in_reply_to_id: root.platformId } : {}),
      ...(block.spoilerText ? { spoiler_text: block.spoilerText } : {}),
      ...(block.visibility ? { visibility: block.visibility } : {}),
      ...(block.language ? { language: block.language } : {}),
      ...(block.sensitive !== undefined ? { sensitive: block.sensitive } : {}),
    };
  }

  async function postStatus(position: number, reservation: Record<string, unknown>, mediaIds: string[], root: PartRef | undefined): Promise<PartRef> {
    const { body } = await client.call<MastodonStatus>({
      path: '/api/v1/statuses', method: 'POST', json: statusBody(position, mediaIds, root), headers: { 'idempotency-key': String(reservation.idempotencyKey) },
    });
    return refOf(body, client.origin);
  }

  /** Statuses of the account made since the reservation, in reply to the root (or to nothing), that no other destination owns. */
  async function candidates(position: number, reservation: Record<string, unknown>, root: PartRef | undefined): Promise<MastodonStatus[]> {
    const since = Date.parse(String(reservation.reservedAt)) - CLOCK_MARGIN_MS;
    const { body } = await orUnknown(position, () => client.call<MastodonStatus[]>({ path: `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=40&exclude_reblogs=true` }));
    const recent = body.filter((s) => Date.parse(s.created_at) >= since && s.in_reply_to_id === (root?.platformId ?? null));
    if (body.length === 40 && recent.length === body.length) throw cannotTell(position, 'the account has posted too much since to search');
    const owned = (await input.ownedElsewhere?.(recent.map((s) => s.id))) ?? new Set<string>();
    return recent.filter((s) => !owned.has(s.id) && s.media_attachments.length === input.containers[position]!.media.length);
  }

  return {
    reserve: () => ({ idempotencyKey: randomUUID(), reservedAt: new Date().toISOString() }),
    async publishPart(position, reservation, root) {
      const container = input.containers[position]!;
      if (!container.media.length) return postStatus(position, reservation, [], root);
      const cp = stored(position);
      if (!cp) throw new PublishWait(0, { position, media: await upload(client, input, container, limits) }, 'mastodon: the media are uploaded');
      await awaitProcessed(client, cp, timing);
      return postStatus(position, reservation, cp.media.map((m) => m.id), root);
    },
    async reconcile(position, reservation, root) {
      // Within the key's hour, sending again is the safe question: the instance answers with the status it made, if it made one.
      if (Date.now() - Date.parse(String(reservation.reservedAt)) < KEY_WINDOW_MS) return 'absent';
      const found = await candidates(position, reservation, root);
      if (found.length > 1) throw cannotTell(position, `${found.length} statuses of the account since then could be it`);
      return found[0] ? refOf(found[0], client.origin) : 'absent';
    },
  };
}

/** Uploads each file of the container with its alt text; which the instance processed at once (200) or is processing (202). */
async function upload(client: MastodonClient, input: PublishInput, container: ContainerInput, limits: InstanceLimits): Promise<MediaCheckpoint['media']> {
  const uploaded: MediaCheckpoint['media'] = [];
  for (const item of container.media) {
    const source = await input.openMedia(item.url);
    const video = mediaKind(item.filename) === 'video';
    const limit = video ? limits.videoSizeLimit : limits.imageSizeLimit;
    if (source.size > limit) {
      throw new PublishError('permanent', `mastodon: ${item.filename} is ${source.size} bytes; the instance takes ${video ? 'videos' : 'images'} of ${limit} bytes at most`, undefined, 'media_rejected');
    }
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await source.bytes())], { type: source.contentType }), item.filename);
    if (item.altText) form.append('description', item.altText);
    const { status, body } = await client.call<MastodonMedia>({ path: '/api/v2/media', method: 'POST', form });
    uploaded.push({ id: body.id, ready: status === 200 && body.url !== null });
  }
  return uploaded;
}

/** Returns when every file is processed; else a wait (with backoff) or the failure. */
async function awaitProcessed(client: MastodonClient, cp: MediaCheckpoint, timing: Timing): Promise<void> {
  for (const media of cp.media.filter((m) => !m.ready)) {
    const answer = await client.answer({ path: `/api/v1/media/${encodeURIComponent(media.id)}` });
    if (answer.status === 200) {
      media.ready = true;
      continue;
    }
    if (answer.status !== 206) {
      const failure = client.failureOf(answer);
      throw answer.status === 422 ? new PublishError('permanent', `mastodon: the instance could not process file ${media.id} (${failure.message.replace(/^mastodon: /, '')})`, undefined, 'media_rejected') : failure;
    }
    cp.processingSince ??= new Date().toISOString();
    if (Date.now() - Date.parse(cp.processingSince) > timing.maxProcessingMs) {
      throw new PublishError('permanent', `mastodon: file ${media.id} was still processing after ${Math.round(timing.maxProcessingMs / 60_000)} minutes`, undefined, 'media_rejected');
    }
    const delayMs = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (cp.polls ?? 0));
    throw new PublishWait(delayMs, { ...cp, polls: (cp.polls ?? 0) + 1 }, `mastodon: the instance is processing file ${media.id}`);
  }
}

function refOf(status: MastodonStatus, origin: string): PartRef {
  return { platformId: status.id, url: status.url ?? status.uri, ref: { instance: origin } };
}
