// The video as checkpointed steps. A step that creates the upload session first judges the thumbnail
// and the video's type, then admits the upload to the managed-key pool (pool.ts: its videos.insert
// call and its units; accounts on the organization's own app are not counted), then POSTs the
// metadata and stores the session URI.
// Each following step PUTs one chunk (a multiple of 256 KiB, read from the media source: a video
// is never held whole) and stores how much the session has. A step after a crash or a retry asks
// the session first (`bytes */TOTAL`): it may hold more than the checkpoint says (a chunk taken whose
// answer was lost), or be complete (its answer names the video). The video id is stored before
// anything else is done with it, then YouTube's processing is polled (videos.list) with backoff.
// A video is only ever created by its session, so no step can create a second one.
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { MediaSource, PublishInput } from '../contract.ts';
import { isProjectQuota, type SessionState, type VideoMetadata, type YoutubeClient } from './client.ts';
import { admitUpload, chargeSpent, denied, markExhausted } from './pool.ts';
import type { YoutubeSettings } from './settings.ts';
import { checkedThumbnail } from './thumbnail.ts';

export type VideoCheckpoint = {
  position: 0;
  /** The session URI (Location of the POST). */
  session?: string;
  total?: number;
  /** Bytes the session confirmed (its Range). */
  received?: number;
  videoId?: string;
  processingSince?: string;
  polls?: number;
};

export interface ProcessingTiming {
  /** The first wait before asking again whether YouTube has processed the video; it doubles. */
  pollMs: number;
  maxPollMs: number;
  /** Processing longer than this fails the post. */
  maxProcessingMs: number;
}

export interface UploadContext {
  client: YoutubeClient;
  input: PublishInput;
  settings: YoutubeSettings;
  metadata: VideoMetadata;
  thumbnailUrl: string | undefined;
  timing: ProcessingTiming;
  /**
   * Units of the units bucket this destination is charged when admitted (its thumbnail and comments,
   * and CRIER_YOUTUBE_UPLOAD_COST); its videos.insert call is counted in the uploads bucket (pool.ts).
   */
  admissionUnits: number;
  /** The step follows a crash or a retry: the session may hold more than the checkpoint says. */
  verifySession: boolean;
}

const VIDEO_TYPES = /^(video\/|application\/octet-stream$)/;

/**
 * The processed video's id and the privacy YouTube reports for it (what was asked, unless YouTube
 * changed it); throws PublishWait with the checkpoint while a step remains.
 */
export async function processedVideo(ctx: UploadContext, cp: VideoCheckpoint): Promise<{ videoId: string; privacyStatus: string | undefined }> {
  if (!cp.videoId) {
    if (!cp.session) await startSession(ctx);
    await sendNextChunk(ctx, cp);
  }
  return { videoId: cp.videoId!, privacyStatus: await awaitProcessed(ctx, cp) };
}

async function startSession(ctx: UploadContext): Promise<never> {
  const { input, settings } = ctx;
  if (ctx.thumbnailUrl) await checkedThumbnail(input, ctx.thumbnailUrl);
  const source = await openVideo(input);
  const managed = input.account.managedApp === true;
  if (managed) await admitUpload(input.ledger, settings.pool, input.account, ctx.admissionUnits);
  let session: string;
  try {
    session = await ctx.client.startUpload(ctx.metadata, source.size, source.contentType);
  } catch (error) {
    if (managed && isProjectQuota(error)) {
      const resetsAt = await markExhausted(input.ledger, settings.pool, input.account.orgId, 'uploads').catch(() => undefined);
      throw denied('provider_quota_exhausted', `Google refused the upload: ${(error as Error).message.replace(/^youtube: /, '')}`, resetsAt);
    }
    throw error;
  }
  throw new PublishWait(0, { position: 0, session, total: source.size, received: 0 } satisfies VideoCheckpoint, 'youtube: the upload session is open');
}

async function sendNextChunk(ctx: UploadContext, cp: VideoCheckpoint): Promise<void> {
  const { client, input, settings } = ctx;
  const total = cp.total!;
  let received = cp.received ?? 0;
  if (ctx.verifySession) {
    const state = await client.querySession(cp.session!, total);
    if (!('received' in state)) return afterSession(ctx, cp, state);
    received = state.received;
  }
  const source = await openVideo(input);
  if (source.size !== total) throw new PublishError('permanent', `youtube: ${filename(input)} changed size during the upload (${total} bytes, now ${source.size})`, undefined, 'media_rejected');
  const end = Math.min(total, received + settings.chunkBytes) - 1;
  const state = await client.putChunk(cp.session!, source.read({ start: received, end }), received, end, total);
  if ('received' in state) {
    throw new PublishWait(0, { ...cp, received: state.received }, `uploading ${filename(input)} to youtube (${state.received} of ${total} bytes)`);
  }
  return afterSession(ctx, cp, state);
}

/** The session is complete (store the video id first) or expired (start a new one). */
function afterSession(ctx: UploadContext, cp: VideoCheckpoint, state: Exclude<SessionState, { received: number }>): never {
  if ('expired' in state) {
    // Google forgot the session (they last about a week): nothing became a video; a new one is admitted and opened.
    throw new PublishWait(0, { position: 0 } satisfies VideoCheckpoint, 'youtube: the upload session expired; opening a new one');
  }
  const done: VideoCheckpoint = { ...cp, received: cp.total!, videoId: state.videoId, processingSince: new Date().toISOString(), polls: 0 };
  throw new PublishWait(ctx.timing.pollMs, done, `youtube is processing ${filename(ctx.input)}`);
}

async function awaitProcessed(ctx: UploadContext, cp: VideoCheckpoint): Promise<string | undefined> {
  const { client, input, settings, timing } = ctx;
  const status = await client.videoStatus(cp.videoId!);
  if (input.account.managedApp === true) {
    // A poll is spent whatever it says; a ledger that cannot record it must not fail a live video.
    await chargeSpent(input.ledger, input.account, settings.pool.costs.list).catch(() => undefined);
  }
  const name = filename(input);
  switch (status?.uploadStatus) {
    case 'processed':
      return status.privacyStatus;
    case 'failed':
      throw new PublishError('permanent', `youtube: YouTube could not process ${name} (failureReason: ${status.failureReason ?? 'not given'})`, undefined, 'media_rejected');
    case 'rejected':
      throw new PublishError('permanent', `youtube: YouTube rejected ${name} (rejectionReason: ${status.rejectionReason ?? 'not given'})`, undefined, 'media_rejected');
    case 'deleted':
      throw new PublishError('permanent', `youtube: the video ${cp.videoId} was deleted on YouTube before it was processed`, undefined, 'not_found');
  }
  const since = Date.parse(cp.processingSince ?? new Date().toISOString());
  if (Date.now() - since > timing.maxProcessingMs) {
    throw new PublishError('permanent', `youtube: ${name} was still being processed after ${Math.round(timing.maxProcessingMs / 60_000)} minutes`, undefined, 'media_rejected');
  }
  const polls = cp.polls ?? 0;
  throw new PublishWait(Math.min(timing.maxPollMs, timing.pollMs * 2 ** polls), { ...cp, polls: polls + 1 }, `youtube is processing ${name}`);
}

async function openVideo(input: PublishInput): Promise<MediaSource> {
  const source = await input.openMedia(input.containers[0]!.media[0]!.url);
  if (!VIDEO_TYPES.test(source.contentType)) {
    throw new PublishError('permanent', `youtube: ${filename(input)} is ${source.contentType}; YouTube takes video files`, undefined, 'media_rejected');
  }
  return source;
}

const filename = (input: PublishInput) => input.containers[0]!.media[0]!.filename;
