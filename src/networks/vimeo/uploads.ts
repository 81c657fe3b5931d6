// A video onto Vimeo as checkpointed steps. Step one checks the member's upload quota and creates the
// video with the tus approach; the checkpoint naming the video and its upload link is stored before
// any byte is sent, so no later step (in this worker or another after a crash) ever creates a second
// one. Each following step asks the upload link how many bytes Vimeo holds (tus HEAD) and sends the
// next chunk from there (PATCH), read from the media source range by range: a video is never held
// whole in memory, and after a crash at most the chunk in flight is sent again. Once every byte is
// there, Vimeo's transcode is waited on (GET /videos/{id}) until it completes or fails.
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { MediaSource } from '../contract.ts';
import type { CreatedVideo, VideoStatus, VimeoClient } from './client.ts';

/** What the root's steps have done; stored on the target between steps. */
export interface VideoCheckpoint {
  position: 0;
  /** "/videos/<id>". */
  video: string;
  uploadLink: string;
  size: number;
  /** Bytes Vimeo confirmed at the end of the last step. */
  offset: number;
  phase: 'upload' | 'transcode';
  /** When the first wait for the transcode began (ISO), and how many "not yet" answers since. */
  transcodingSince?: string;
  polls?: number;
}

export interface UploadTiming {
  /** Bytes per PATCH: one chunk per step. */
  chunkBytes: number;
  /** The first wait before asking again whether the transcode is done; it doubles each time. */
  pollMs: number;
  maxPollMs: number;
  /** A transcode longer than this fails the post. */
  maxTranscodeMs: number;
}

/** Creates the video (after checking it fits the quota) and ends the step with its checkpoint. */
export async function startUpload(client: VimeoClient, source: MediaSource, filename: string, metadata: Record<string, unknown>): Promise<never> {
  const space = await client.uploadSpace();
  if (space && source.size > space.free) {
    const reset = space.resetDate ? `; it resets on ${space.resetDate}` : '';
    throw new PublishError('permanent', `vimeo: ${filename} is ${megabytes(source.size)} but the account's upload quota has ${megabytes(space.free)} left${reset}`, undefined, 'quota');
  }
  const created = await client.createVideo({ ...metadata, upload: { approach: 'tus', size: String(source.size) } });
  throw startedUpload(created, source.size);
}

/** The wait that stores a created (or found again) video before its first byte is sent. */
export function startedUpload(video: Pick<CreatedVideo, 'uri' | 'uploadLink'>, size: number): PublishWait {
  const cp: VideoCheckpoint = { position: 0, video: video.uri, uploadLink: video.uploadLink, size, offset: 0, phase: 'upload' };
  return new PublishWait(0, { ...cp }, `vimeo: created ${video.uri}`);
}

/**
 * The video once transcoded; throws PublishWait while a chunk or the transcode is still to come. The
 * file is opened only while bytes remain to send (a file from another URL is downloaded to open it).
 */
export async function uploadedVideo(client: VimeoClient, open: () => Promise<MediaSource>, cp: VideoCheckpoint, timing: UploadTiming): Promise<VideoStatus> {
  if (cp.phase === 'upload') await sendNextChunk(client, await open(), cp, timing);
  return awaitTranscode(client, cp, timing);
}

async function sendNextChunk(client: VimeoClient, source: MediaSource, cp: VideoCheckpoint, timing: UploadTiming): Promise<void> {
  if (source.size !== cp.size) {
    throw new PublishError('permanent', `vimeo: the file is now ${source.size} bytes, but ${cp.video} was created for ${cp.size}; it changed during the upload`, undefined, 'media_rejected');
  }
  // The checkpoint's offset may be behind: a worker killed after Vimeo took a chunk never stored it.
  const held = await client.uploadOffset(cp.uploadLink);
  if (held.length !== undefined && held.length !== cp.size) {
    throw new PublishError('permanent', `vimeo: the upload link of ${cp.video} expects ${held.length} bytes, not ${cp.size}`, undefined, 'invalid');
  }
  let offset = held.offset;
  if (offset < cp.size) {
    const end = Math.min(offset + timing.chunkBytes, cp.size) - 1;
    offset = await client.sendBytes(cp.uploadLink, offset, source.read({ start: offset, end }), end - offset + 1);
    if (offset < cp.size) throw new PublishWait(0, { ...cp, offset }, `uploading ${cp.video} to vimeo`);
  }
  cp.offset = offset;
  cp.phase = 'transcode';
}

/** Complete: the video. Error: Vimeo's refusal. In progress: a wait, twice as long each time. */
async function awaitTranscode(client: VimeoClient, cp: VideoCheckpoint, timing: UploadTiming): Promise<VideoStatus> {
  const status = await client.videoStatus(cp.video);
  if (status.transcode === 'complete') return status;
  if (status.transcode === 'error' || status.upload === 'error') {
    const why = [status.upload === 'error' ? 'upload.status error' : 'transcode.status error', status.status ? `status ${status.status}` : undefined].filter(Boolean).join(', ');
    throw new PublishError('permanent', `vimeo: Vimeo could not transcode ${cp.video} (${why}); it stays on the account unplayable, delete it there`, undefined, 'media_rejected');
  }
  cp.transcodingSince ??= new Date().toISOString();
  if (Date.now() - Date.parse(cp.transcodingSince) > timing.maxTranscodeMs) {
    throw new PublishError('permanent', `vimeo: ${cp.video} was still transcoding after ${Math.round(timing.maxTranscodeMs / 60_000)} minutes`, undefined, 'media_rejected');
  }
  const delayMs = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (cp.polls ?? 0));
  cp.polls = (cp.polls ?? 0) + 1;
  throw new PublishWait(delayMs, { ...cp }, `vimeo is transcoding ${cp.video}`);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
