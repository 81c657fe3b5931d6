// A TikTok post as checkpointed steps (PublishWait): each step ends by storing what it did, so a
// worker killed in any of them is followed by one that resumes from the last stored step.
//  1. `start`: for a direct post, creator_info, the checks against it and admission under the creator
//     cap (recorded before TikTok is called); a video's upload is then initialized (an upload session
//     publishes nothing until its last byte arrives); a photo post waits for step 2.
//  2. `init` (photos): /content/init/, which starts the post at once: a step of its own, so that after
//     a crash in it Crier knows it cannot tell (reconcile) instead of posting twice.
//  3. `upload` (video): one chunk per step. A step not preceded in this process by the one before it
//     (a crash, another worker, a failed PUT) first asks TikTok how many bytes it holds (status
//     fetch, uploaded_bytes) and resumes at the first chunk TikTok lacks.
//  4. `status`: status fetch until SEND_TO_USER_INBOX, PUBLISH_COMPLETE or FAILED, waiting longer
//     each time.
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { MediaSource, PublishInput } from '../contract.ts';
import { checkAgainstCreator, photoInitBody, postModeOf, videoInitBody } from './bodies.ts';
import { admitCreator } from './cap.ts';
import { chunkPlan, chunkRange, chunksHeld, isoDurationSeconds, type ChunkPlan } from './chunks.ts';
import type { CreatorInfo, PublishStatus, TikTokClient } from './client.ts';
import type { TiktokBlock } from './options.ts';

export interface StepTiming {
  /** The first wait before asking TikTok for the status; each later one is twice the last, up to maxPollMs. */
  pollMs: number;
  maxPollMs: number;
  /** Processing (and moderation) longer than this fails the post. */
  maxProcessingMs: number;
  chunkBytes?: number;
}

export type TikTokCheckpoint = {
  position: 0;
  kind: 'video' | 'photo';
  stage: 'init' | 'upload' | 'status';
  /** The creator's @username, for the profile and post URLs. */
  username: string;
  /** A direct photo post's creator settings, as checked in step 1 (the defaults of its interactions). */
  creator?: CreatorInfo;
  publishId?: string;
  uploadUrl?: string;
  plan?: ChunkPlan;
  /** Chunks TikTok confirmed (206/201), in order. */
  sent?: number;
  polls?: number;
  /** When the first status wait began (ISO). */
  waitingSince?: string;
};

export interface StepContext {
  client: TikTokClient;
  input: PublishInput;
  block: TiktokBlock;
  text: string;
  creatorCap: number;
  timing: StepTiming;
}

/**
 * Chunks confirmed per publish_id by this process: a step finding its checkpoint's count here knows
 * the previous step ran in this process and finished; any other step asks TikTok first. Entries go
 * when their upload completes; the size bound keeps abandoned ones from piling up.
 */
const confirmedHere = new Map<string, number>();
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);
const CONFIRMED_KEPT = 1000;

/** Step 1. */
export async function start(ctx: StepContext, kind: 'video' | 'photo'): Promise<never> {
  const { client, input, block } = ctx;
  const media = input.containers[0]!.media;
  const source = kind === 'video' ? await input.openMedia(media[0]!.url) : undefined;
  let creator: CreatorInfo | undefined;
  if (postModeOf(block) === 'DIRECT_POST') {
    creator = await client.creatorInfo();
    const seconds = source ? await isoDurationSeconds(source.size, (s, e) => source.read({ start: s, end: e })) : undefined;
    checkAgainstCreator(block, creator, source ? { seconds } : undefined);
    await admitCreator(input.ledger, { openId: input.account.networkUniqueId, orgId: input.account.orgId }, ctx.creatorCap);
  }
  const username = creator?.username || input.account.username;
  if (!source) {
    const cp: TikTokCheckpoint = { position: 0, kind, stage: 'init', username, ...(creator ? { creator } : {}) };
    throw new PublishWait(0, cp, 'tiktok: the photo post is checked');
  }
  const plan = chunkPlan(source.size, ctx.timing.chunkBytes);
  const session = await client.initVideo(postModeOf(block) === 'DIRECT_POST' ? 'direct' : 'inbox', videoInitBody(block, ctx.text, plan, creator));
  const cp: TikTokCheckpoint = { position: 0, kind, stage: 'upload', username, publishId: session.publishId, uploadUrl: session.uploadUrl, plan, sent: 0 };
  remember(session.publishId, 0);
  throw new PublishWait(0, cp, 'tiktok: the upload is initialized');
}

/** Step 2 (photos). */
export async function initPhotos(ctx: StepContext, cp: TikTokCheckpoint): Promise<never> {
  const urls = ctx.input.containers[0]!.media.map((m) => m.url);
  const publishId = await ctx.client.initPhoto(photoInitBody(ctx.block, ctx.text, urls, cp.creator));
  throw waitForStatus(ctx, { ...cp, stage: 'status', publishId });
}

/** Step 3 (video): one chunk. */
export async function uploadChunk(ctx: StepContext, cp: TikTokCheckpoint): Promise<never> {
  const plan = cp.plan!;
  const publishId = cp.publishId!;
  const media = ctx.input.containers[0]!.media[0]!;
  let sent = cp.sent ?? 0;
  if (confirmedHere.get(publishId) !== sent) sent = await chunksTikTokHolds(ctx, cp);
  if (sent < plan.count) {
    const source = await ctx.input.openMedia(media.url);
    if (source.size !== plan.videoSize) throw new PublishError('permanent', `tiktok: ${media.filename} changed size during its upload (${plan.videoSize} then ${source.size} bytes)`, undefined, 'media_rejected');
    await putChunk(ctx, cp, source, sent);
    sent += 1;
    remember(publishId, sent);
  }
  if (sent < plan.count) throw new PublishWait(0, { ...cp, sent }, `uploading ${media.filename} to tiktok`);
  confirmedHere.delete(publishId);
  throw waitForStatus(ctx, { ...cp, sent, stage: 'status' });
}

async function putChunk(ctx: StepContext, cp: TikTokCheckpoint, source: MediaSource, index: number): Promise<void> {
  const { first, last } = chunkRange(cp.plan!, index);
  try {
    await ctx.client.putChunk(cp.uploadUrl!, source.read({ start: first, end: last }), { first, last, total: cp.plan!.videoSize }, videoType(source, ctx.input.containers[0]!.media[0]!.filename));
  } catch (error) {
    // Whether TikTok kept any of it is asked on the next step.
    confirmedHere.delete(cp.publishId!);
    throw error;
  }
}

/** The Content-Type TikTok takes (MP4, MOV, WebM): the served type, else the one the file name says. */
function videoType(source: MediaSource, filename: string): string {
  if (VIDEO_TYPES.has(source.contentType)) return source.contentType;
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  return extension === 'mov' ? 'video/quicktime' : extension === 'webm' ? 'video/webm' : 'video/mp4';
}

/** How many chunks TikTok holds whole, by its uploaded_bytes (a refused or failed upload ends here). */
async function chunksTikTokHolds(ctx: StepContext, cp: TikTokCheckpoint): Promise<number> {
  const status = await ctx.client.status(cp.publishId!);
  if (status.status === 'FAILED') throw failed(status);
  if (status.status !== 'PROCESSING_UPLOAD') return cp.plan!.count; // every byte arrived: TikTok moved on
  return chunksHeld(cp.plan!, status.uploadedBytes ?? 0);
}

function remember(publishId: string, sent: number): void {
  if (confirmedHere.size >= CONFIRMED_KEPT) confirmedHere.delete(confirmedHere.keys().next().value!);
  confirmedHere.set(publishId, sent);
}

/** Step 4: the status once; TikTok's terminal status, or a wait for the next ask. */
export async function fetchStatus(ctx: StepContext, cp: TikTokCheckpoint): Promise<PublishStatus> {
  const status = await ctx.client.status(cp.publishId!);
  if (status.status === 'FAILED') throw failed(status);
  if (status.status === 'PUBLISH_COMPLETE' || status.status === 'SEND_TO_USER_INBOX') return status;
  const since = cp.waitingSince ?? new Date().toISOString();
  if (Date.now() - Date.parse(since) > ctx.timing.maxProcessingMs) {
    throw new PublishError('permanent', `tiktok: the post was still ${status.status} after ${Math.round(ctx.timing.maxProcessingMs / 60_000)} minutes (publish_id ${cp.publishId}); check the creator's TikTok profile and inbox`, undefined, 'server');
  }
  throw waitForStatus(ctx, { ...cp, waitingSince: since });
}

function waitForStatus(ctx: StepContext, cp: TikTokCheckpoint): PublishWait {
  const polls = cp.polls ?? 0;
  const delayMs = Math.min(ctx.timing.maxPollMs, ctx.timing.pollMs * 2 ** polls);
  return new PublishWait(delayMs, { ...cp, polls: polls + 1 }, `tiktok is processing publish ${cp.publishId}`);
}

function failed(status: PublishStatus): PublishError {
  return new PublishError('permanent', `tiktok: TikTok could not publish the post (FAILED: ${status.failReason ?? 'no fail_reason given'})`, undefined, 'media_rejected');
}
