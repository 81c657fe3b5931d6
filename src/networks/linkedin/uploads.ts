// Getting a container's media onto LinkedIn as checkpointed steps. Images and documents: initialize
// an upload, PUT the file. Video: initialize with the file's size, PUT each byte range LinkedIn hands
// out (one range per step, read from the media source: a video is never held whole in memory),
// finalize with the parts' ETags. Then every file must be AVAILABLE before the post can name it.
// Whatever has to wait — the next range, LinkedIn's processing — ends the step with the checkpoint
// (PublishWait): the worker slot is freed, and the next step, in this worker or another after a
// crash, resumes from what the checkpoint says is done.
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { MediaInput } from '../../core/post.ts';
import type { MediaSource, PublishInput } from '../contract.ts';
import type { LinkedInClient, VideoUpload } from './client.ts';

export const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);
export const VIDEO_TYPES = new Set(['video/mp4']);
export const DOCUMENT_TYPES = new Set([
  'application/pdf', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-powerpoint', 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);

export type UploadedKind = 'image' | 'video' | 'document';

/** One file's progress, in the checkpoint. */
export interface Uploaded {
  kind: UploadedKind;
  urn: string;
  /** Video only: the upload session and the ETags of the ranges sent so far, in order. */
  video?: { upload: VideoUpload; etags: string[]; finalized: boolean };
}

/** What a container's media steps have done; stored on the target between steps. */
export interface MediaCheckpoint {
  position: number;
  media: Uploaded[];
  /** The article's thumbnail, once uploaded. */
  thumbnail?: string;
  /** When the first wait for processing began (ISO): processing that never ends is given up on. */
  processingSince?: string;
  /** How many times LinkedIn answered "not yet": each wait is twice the last, up to MediaTiming.maxPollMs. */
  polls?: number;
  /**
   * Every file is AVAILABLE and this was stored before the post was created: creating the post is a
   * step of its own, so a stored checkpoint without it proves the post was never sent (reconcile).
   */
  ready?: boolean;
}

export interface MediaTiming {
  /** The first wait before asking again whether LinkedIn has processed a file; it doubles each time. */
  pollMs: number;
  maxPollMs: number;
  /** Processing longer than this fails the post. */
  maxProcessingMs: number;
}

/** The URNs of `media`, each uploaded and AVAILABLE; throws PublishWait while that is not yet so. */
export async function uploadedMedia(
  client: LinkedInClient, input: PublishInput, owner: string, media: MediaInput[], cp: MediaCheckpoint, timing: MediaTiming,
): Promise<Uploaded[]> {
  if (cp.ready) return cp.media;
  for (let i = 0; i < media.length; i++) {
    const done = cp.media[i];
    if (!done || (done.video && !done.video.finalized)) await uploadStep(client, input, owner, media[i]!, i, cp);
  }
  await awaitProcessing(client, cp.media.map((m) => m.urn), cp, timing);
  return cp.media;
}

/** The article thumbnail's image URN, uploaded and AVAILABLE. */
export async function uploadedThumbnail(client: LinkedInClient, input: PublishInput, owner: string, url: string, cp: MediaCheckpoint, timing: MediaTiming): Promise<string> {
  if (cp.ready && cp.thumbnail) return cp.thumbnail;
  if (!cp.thumbnail) {
    const source = await input.openMedia(url);
    if (!IMAGE_TYPES.has(source.contentType)) {
      throw new PublishError('permanent', `linkedin: the article thumbnail ${url} is ${source.contentType}; LinkedIn takes a JPEG, PNG or GIF image`, undefined, 'media_rejected');
    }
    cp.thumbnail = await uploadWhole(client, source, (await client.initializeImage(owner)));
  }
  await awaitProcessing(client, [cp.thumbnail], cp, timing);
  return cp.thumbnail;
}

async function uploadStep(client: LinkedInClient, input: PublishInput, owner: string, media: MediaInput, index: number, cp: MediaCheckpoint): Promise<void> {
  const source = await input.openMedia(media.url);
  const kind = kindOf(source, media);
  if (kind !== 'video') {
    const target = kind === 'image' ? await client.initializeImage(owner) : await client.initializeDocument(owner);
    cp.media[index] = { kind, urn: await uploadWhole(client, source, target) };
    return;
  }
  let progress = cp.media[index]?.video;
  if (!progress) {
    const upload = await client.initializeVideo(owner, source.size);
    progress = { upload, etags: [], finalized: false };
    cp.media[index] = { kind, urn: upload.video, video: progress };
  }
  const parts = progress.upload.parts;
  if (progress.etags.length < parts.length) {
    const part = parts[progress.etags.length]!;
    const length = part.lastByte - part.firstByte + 1;
    const etag = await client.upload(part.uploadUrl, source.read({ start: part.firstByte, end: part.lastByte }), length, 'application/octet-stream');
    if (!etag) throw new PublishError('retryable', `linkedin: the upload of bytes ${part.firstByte}-${part.lastByte} of ${media.filename} was answered without an ETag`);
    progress.etags.push(etag);
    // The range is on record before the next one is sent: a crash re-sends at most the range in flight.
    if (progress.etags.length < parts.length) throw new PublishWait(0, { ...cp }, `uploading ${media.filename} to linkedin`);
  }
  await client.finalizeVideo(progress.upload, progress.etags);
  progress.finalized = true;
}

async function uploadWhole(client: LinkedInClient, source: MediaSource, target: { uploadUrl: string; image?: string; document?: string }): Promise<string> {
  await client.upload(target.uploadUrl, source.read(), source.size, source.contentType);
  return (target.image ?? target.document)!;
}

/** Every URN AVAILABLE, or a wait (with the checkpoint) until it may be, or the failure LinkedIn gave. */
async function awaitProcessing(client: LinkedInClient, urns: string[], cp: MediaCheckpoint, timing: MediaTiming): Promise<void> {
  for (const urn of urns) {
    const { status, reason } = await client.mediaStatus(urn);
    if (status === 'AVAILABLE') continue;
    if (status === 'PROCESSING_FAILED') {
      throw new PublishError('permanent', `linkedin: LinkedIn could not process ${urn}${reason ? ` (${reason})` : ''}`, undefined, 'media_rejected');
    }
    cp.processingSince ??= new Date().toISOString();
    if (Date.now() - Date.parse(cp.processingSince) > timing.maxProcessingMs) {
      throw new PublishError('permanent', `linkedin: ${urn} was still ${status} after ${Math.round(timing.maxProcessingMs / 60_000)} minutes of processing`, undefined, 'media_rejected');
    }
    const delayMs = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (cp.polls ?? 0));
    cp.polls = (cp.polls ?? 0) + 1;
    throw new PublishWait(delayMs, { ...cp }, `linkedin is processing ${urn}`);
  }
}

function kindOf(source: MediaSource, media: MediaInput): UploadedKind {
  if (IMAGE_TYPES.has(source.contentType)) return 'image';
  if (VIDEO_TYPES.has(source.contentType)) return 'video';
  if (DOCUMENT_TYPES.has(source.contentType)) return 'document';
  throw new PublishError('permanent', `linkedin: ${media.filename} is ${source.contentType}; LinkedIn takes JPEG, PNG or GIF images, MP4 video, or PDF, Word or PowerPoint documents`, undefined, 'media_rejected');
}
