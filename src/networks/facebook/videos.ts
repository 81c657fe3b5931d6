// A Page video as checkpointed steps. Feed video: upload_phase=start, then one transfer per step (the
// range Meta asks for next, read from the media source), then finish (with the description), then
// Meta's processing polled with backoff until the video is published. Reel: video_reels start, the
// file to rupload, finish with video_state=PUBLISHED, then processing. Video Story: video_stories
// start, rupload, finish (which gives the post). The finishing call publishes: a step that is about to
// make it first stores `finishing`, and a step that begins from it asks the video's status before
// finishing again, so a crash never finishes twice and reconcile knows when nothing was finished.
// Meta reports the upload phase complete once the bytes are in, before finish: only processing or
// publishing having started shows that finish was received (client.ts, videoStatusOf).
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { MediaSource, PublishInput } from '../contract.ts';
import type { FacebookClient } from './client.ts';

export type VideoKind = 'video' | 'reel' | 'story';

export interface VideoProgress {
  kind: VideoKind;
  id: string;
  /** Feed video: the upload session and the next range Meta asked for. */
  session?: string;
  start?: number;
  end?: number;
  uploadUrl?: string;
  uploaded: boolean;
  finishing?: boolean;
  finished?: boolean;
  /** A Story's post, from finish. */
  postId?: string;
  polls?: number;
  since?: string;
}

export interface VideoTiming {
  pollMs: number;
  maxPollMs: number;
  maxProcessingMs: number;
}

export type VideoCheckpoint = { position: 0; photos: string[]; video?: VideoProgress };

/**
 * Runs the next step of the video; returns the published video's id (or a Story's post id) once
 * done, and throws PublishWait with the checkpoint in between.
 */
export async function publishedVideo(
  client: FacebookClient, input: PublishInput, kind: VideoKind, description: string, cp: VideoCheckpoint, timing: VideoTiming,
): Promise<string> {
  const media = input.containers[0]!.media[0]!;
  let v = cp.video;
  if (!v) {
    const source = await openVideo(input);
    if (kind === 'video') {
      const started = await client.startVideo(source.size);
      v = { kind, id: started.videoId, session: started.session, start: started.start, end: started.end, uploaded: false };
    } else {
      const started = await client.startPhased(kind === 'reel' ? 'video_reels' : 'video_stories');
      v = { kind, id: started.videoId, uploadUrl: started.uploadUrl, uploaded: false };
    }
    throw step(cp, v, `uploading ${media.filename} to facebook`);
  }
  if (!v.uploaded) {
    const source = await openVideo(input);
    if (v.kind === 'video') {
      const next = await client.transferVideo(v.session!, v.start!, await readRange(source, v.start!, v.end! - 1));
      v = { ...v, start: next.start, end: next.end, uploaded: next.start >= source.size };
    } else {
      await client.rupload(v.uploadUrl!, source.read(), source.size);
      v = { ...v, uploaded: true };
    }
    throw step(cp, v, `uploading ${media.filename} to facebook`);
  }
  if (!v.finishing) throw step(cp, { ...v, finishing: true }, `facebook: ${media.filename} is uploaded`);
  if (!v.finished) {
    // A step that began from `finishing` may follow a crash after the finish call: ask first. The
    // bytes being in says nothing (Meta says so before finish); processing or publishing does.
    const already = v.kind !== 'story' && (await client.videoStatus(v.id)).finishReceived;
    const postId = already ? undefined : v.kind === 'video' ? (await client.finishVideo(v.session!, description), undefined)
      : await client.finishPhased(v.kind === 'reel' ? 'video_reels' : 'video_stories', v.id, description);
    if (v.kind === 'story') return postId || v.id;
    throw step(cp, { ...v, finished: true, since: new Date().toISOString() }, `facebook is processing ${media.filename}`, timing.pollMs);
  }
  return awaitPublished(client, cp, v, media.filename, timing);
}

async function awaitPublished(client: FacebookClient, cp: VideoCheckpoint, v: VideoProgress, filename: string, timing: VideoTiming): Promise<string> {
  const status = await client.videoStatus(v.id);
  if (status.processing === 'error') {
    throw new PublishError('permanent', `facebook: Facebook could not process ${filename}${status.error ? `: ${status.error}` : ''}`, undefined, 'media_rejected');
  }
  if (status.published) return v.id;
  if (Date.now() - Date.parse(v.since ?? new Date().toISOString()) > timing.maxProcessingMs) {
    throw new PublishError('permanent', `facebook: ${filename} was still processing after ${Math.round(timing.maxProcessingMs / 60_000)} minutes`, undefined, 'media_rejected');
  }
  const delay = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (v.polls ?? 0));
  throw step(cp, { ...v, polls: (v.polls ?? 0) + 1 }, `facebook is processing ${filename}`, delay);
}

function step(cp: VideoCheckpoint, video: VideoProgress, reason: string, delayMs = 0): PublishWait {
  return new PublishWait(delayMs, { ...cp, video }, reason);
}

const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);

async function openVideo(input: PublishInput): Promise<MediaSource> {
  const media = input.containers[0]!.media[0]!;
  const source = await input.openMedia(media.url);
  if (!VIDEO_TYPES.has(source.contentType)) {
    throw new PublishError('permanent', `facebook: ${media.filename} is ${source.contentType}; Facebook videos are MP4 or MOV`, undefined, 'media_rejected');
  }
  return source;
}

async function readRange(source: MediaSource, start: number, end: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.read({ start, end })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
