// A container's way to "ready to publish", as checkpointed steps. Threads fetches the media itself
// (by URL), so there is nothing to upload: create the container (for a carousel, first its items),
// store its id, then ask for its status — IN_PROGRESS, FINISHED, ERROR, EXPIRED — until FINISHED,
// waiting in between with backoff (PublishWait frees the worker). Each id is on record before the
// next call, so a worker killed at any point resumes polling the same container instead of creating
// another. FINISHED is stored as `ready` in a step of its own before the publish call: a stored
// checkpoint without it proves the container was never published (reconcile).
import { PublishError, PublishWait } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import type { ContainerInput, MediaInput } from '../../core/post.ts';
import type { ThreadsClient } from './client.ts';

export interface ContainerCheckpoint {
  position: number;
  /** Carousel item containers, in media order, once all are created. */
  items?: string[];
  /** The container to publish (a carousel's once its items are FINISHED). */
  container?: string;
  /** Status polls so far (each wait is twice the last) and when they began (ISO). */
  polls?: number;
  processingSince?: string;
  /** The container is FINISHED, stored before the publish call. */
  ready?: boolean;
  /** "Media Not Found" answers to the publish call so far. */
  notFound?: number;
}

export interface Timing {
  /** The first wait before asking for a container's status; it doubles each time up to maxPollMs. */
  pollMs: number;
  maxPollMs: number;
  /** Processing longer than this fails the destination. */
  maxProcessingMs: number;
}

/** What goes into every container of this position besides its media (text, reply target, options). */
export type ContainerParams = Record<string, string | undefined>;

/** Advances the container of `cp` by one step; always ends in PublishWait (or a PublishError). */
export async function advance(client: ThreadsClient, container: ContainerInput, params: ContainerParams, cp: ContainerCheckpoint, timing: Timing): Promise<never> {
  const media = container.media;
  if (!cp.container && media.length > 1 && !cp.items) {
    cp.items = [];
    for (const item of media) cp.items.push(await client.createContainer({ ...mediaParams(item), is_carousel_item: 'true' }));
    throw waitFor(cp, timing, 'threads is fetching the carousel media');
  }
  if (!cp.container && cp.items) {
    await awaitFinished(client, cp.items, cp, timing);
    cp.container = await client.createContainer({ ...params, media_type: 'CAROUSEL', children: cp.items.join(',') });
    resetPolls(cp);
    throw waitFor(cp, timing, 'threads is preparing the carousel');
  }
  if (!cp.container) {
    cp.container = await client.createContainer({ ...params, ...(media.length ? mediaParams(media[0]!) : { media_type: 'TEXT' }) });
    throw waitFor(cp, timing, 'threads is preparing the post');
  }
  await awaitFinished(client, [cp.container], cp, timing);
  throw new PublishWait(0, { ...cp, ready: true }, 'threads: the container is ready');
}

function mediaParams(media: MediaInput): ContainerParams {
  const video = mediaKind(media.filename) === 'video';
  return {
    media_type: video ? 'VIDEO' : 'IMAGE',
    [video ? 'video_url' : 'image_url']: media.url,
    ...(media.altText ? { alt_text: media.altText } : {}),
  };
}

/** Returns when every container is FINISHED; else a wait, a fresh start (EXPIRED) or the failure. */
async function awaitFinished(client: ThreadsClient, ids: string[], cp: ContainerCheckpoint, timing: Timing): Promise<void> {
  for (const id of ids) {
    const { status, errorMessage } = await client.containerStatus(id);
    if (status === 'FINISHED') continue;
    if (status === 'ERROR') {
      throw new PublishError('permanent', `threads: Threads could not process container ${id}${errorMessage ? ` (${errorMessage})` : ''}`, undefined, 'media_rejected');
    }
    if (status === 'EXPIRED') {
      // Not published within 24 h (a long outage): Threads drops it; a new container starts over.
      throw new PublishWait(0, { position: cp.position }, `threads: container ${id} expired; creating it again`);
    }
    if (status === 'PUBLISHED') throw new PublishError('unknown', `threads: container ${id} is already published, though Crier never recorded publishing it; check the account`);
    cp.processingSince ??= new Date().toISOString();
    if (Date.now() - Date.parse(cp.processingSince) > timing.maxProcessingMs) {
      throw new PublishError('permanent', `threads: container ${id} was still ${status} after ${Math.round(timing.maxProcessingMs / 60_000)} minutes`, undefined, 'media_rejected');
    }
    throw waitFor(cp, timing, `threads is processing container ${id}`);
  }
}

function waitFor(cp: ContainerCheckpoint, timing: Timing, reason: string): PublishWait {
  const delayMs = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (cp.polls ?? 0));
  cp.polls = (cp.polls ?? 0) + 1;
  return new PublishWait(delayMs, { ...cp }, reason);
}

function resetPolls(cp: ContainerCheckpoint): void {
  delete cp.polls;
  delete cp.processingSince;
}
