// Getting the root's containers created and processed, as checkpointed steps. The first step checks
// the account's publishing limit, creates the containers (the single one, or every carousel item)
// and stores their ids; later steps poll each one's status_code (IN_PROGRESS → FINISHED) with
// backoff, create the CAROUSEL container once its items are done and poll it too, then store `ready`.
// Publishing happens only in a step that began from a stored `ready` checkpoint: a worker that dies
// in any earlier step resumes polling the stored ids and creates nothing again, and reconcile knows
// that without `ready` nothing was published.
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { InstagramClient } from './client.ts';
import type { ContainerPlan } from './plan.ts';

export interface ContainerCheckpoint {
  position: 0;
  /** The item containers' ids, in the plan's order (one for a single image, Reel or Story). */
  items: string[];
  /** The CAROUSEL container, once created. */
  parent?: string;
  /** When the first wait for processing began (ISO). */
  since?: string;
  polls?: number;
  ready?: boolean;
}

export interface ContainerTiming {
  /** The first wait before asking again; it doubles up to maxPollMs. */
  pollMs: number;
  maxPollMs: number;
  /** Processing longer than this fails the destination. */
  maxProcessingMs: number;
}

/** The id to publish (`creation_id`) once every container is FINISHED; otherwise throws PublishWait. */
export async function readyContainer(client: InstagramClient, plan: ContainerPlan, cp: ContainerCheckpoint, timing: ContainerTiming): Promise<string> {
  if (cp.ready) return cp.parent ?? cp.items[0]!;
  if (cp.items.length === 0) {
    await checkPublishingLimit(client);
    for (const item of plan.items) cp.items.push(await client.createContainer(item.params));
    if (!plan.parent) throw wait(cp, timing);
  }
  await awaitFinished(client, cp.items, plan, cp, timing);
  if (plan.parent && !cp.parent) {
    cp.parent = await client.createContainer({ ...plan.parent, children: cp.items.join(',') });
    throw wait(cp, timing);
  }
  if (cp.parent) await awaitFinished(client, [cp.parent], plan, cp, timing);
  throw new PublishWait(0, { ...cp, ready: true }, 'instagram: the containers are ready');
}

async function awaitFinished(client: InstagramClient, ids: string[], plan: ContainerPlan, cp: ContainerCheckpoint, timing: ContainerTiming): Promise<void> {
  for (const [i, id] of ids.entries()) {
    const { code, status } = await client.containerStatus(id);
    if (code === 'FINISHED') continue;
    const what = id === cp.parent ? 'the carousel' : plan.items[i]?.filename ?? id;
    if (code === 'ERROR') throw new PublishError('permanent', `instagram: Instagram could not process ${what}: ${status}`, undefined, 'media_rejected');
    if (code === 'EXPIRED') {
      // Unpublished containers expire after 24 hours (a post held that long by retries): start over.
      throw new PublishWait(0, { position: 0, items: [] }, `instagram: the container of ${what} expired; creating it again`);
    }
    if (code === 'PUBLISHED') throw new PublishError('unknown', `instagram: the container of ${what} is already published, though Crier never published it; check the account`);
    cp.since ??= new Date().toISOString();
    if (Date.now() - Date.parse(cp.since) > timing.maxProcessingMs) {
      throw new PublishError('permanent', `instagram: ${what} was still processing after ${Math.round(timing.maxProcessingMs / 60_000)} minutes`, undefined, 'media_rejected');
    }
    throw wait(cp, timing, what);
  }
}

function wait(cp: ContainerCheckpoint, timing: ContainerTiming, what = 'the media'): PublishWait {
  const delayMs = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (cp.polls ?? 0));
  cp.polls = (cp.polls ?? 0) + 1;
  cp.since ??= new Date().toISOString();
  return new PublishWait(delayMs, { ...cp, items: [...cp.items] }, `instagram is processing ${what}`);
}

/**
 * The account's rolling 24-hour publishing limit, read before anything is created. When it is spent
 * the destination is retried when the oldest post in the window leaves it (its timestamp plus the
 * window), not failed: the post is valid, and the limit frees by itself — posts made in the app or by
 * other tools count too, which Crier's own pacing (the network's accountQuota) cannot see.
 */
async function checkPublishingLimit(client: InstagramClient): Promise<void> {
  const { usage, total, durationSecs } = await client.publishingLimit();
  if (usage < total) return;
  const windowMs = durationSecs * 1000;
  const recent = await client.recentMedia(false, Math.min(100, total));
  const inWindow = recent.map((m) => Date.parse(m.timestamp.replace(/\+0000$/, 'Z'))).filter((t) => Number.isFinite(t) && t > Date.now() - windowMs);
  const frees = inWindow.length ? Math.min(...inWindow) + windowMs : Date.now() + windowMs;
  const retryAfterMs = Math.max(60_000, frees - Date.now());
  throw new PublishError('retryable', `instagram: the account has published ${usage} of its ${total} posts allowed per ${Math.round(durationSecs / 3600)} hours; the next slot frees at ${new Date(frees).toISOString()}, when it is posted`, retryAfterMs, 'quota');
}
