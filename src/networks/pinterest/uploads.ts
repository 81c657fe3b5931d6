// Getting a pin's media to Pinterest. Images travel in the pin itself: by URL (`image_url`,
// `multiple_image_urls`) when Pinterest can fetch them from Crier, else as base64 of their bytes
// (`image_base64`, `multiple_image_base64`). A video is registered (POST /v5/media), uploaded once as
// the multipart form Pinterest's upload URL asks for (streamed from the media source: never held whole),
// then polled until Pinterest has processed it (GET /v5/media/{id}). Each of those is a checkpointed
// step (PublishWait): a worker that dies resumes from what the checkpoint says is done.
import { PublishError, PublishWait } from '../../core/errors.ts';
import type { MediaInput } from '../../core/post.ts';
import type { MediaSource, PublishInput } from '../contract.ts';
import { streamedForm, type StreamedForm } from '../multipart.ts';
import type { PinterestClient, RegisteredMedia } from './client.ts';

/** Pinterest's ContentType enum (v5): the only image types it takes. */
export const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);
/** .mp4, .mov, .m4v (Pinterest's product specs). */
const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/x-m4v']);
/** S3 refusing the form more often than this (a policy that keeps expiring) fails the post. */
const MAX_REGISTRATIONS = 3;

export interface VideoProgress extends RegisteredMedia {
  /** The form was accepted by the upload URL. */
  uploaded: boolean;
  /** When processing began (ISO): processing that never ends is given up on. */
  since?: string;
  polls?: number;
}

/** What the root's media steps have done; stored on the target between steps. */
export interface PinCheckpoint {
  position: 0;
  video?: VideoProgress;
  /** How many times a video was registered (a refused upload registers it again). */
  registrations?: number;
  /**
   * The video is processed and this was stored before the pin was created: creating the pin is a step
   * of its own, so a stored checkpoint without it proves the pin was never sent (reconcile).
   */
  ready?: boolean;
}

export interface VideoTiming {
  pollMs: number;
  maxPollMs: number;
  maxProcessingMs: number;
}

/** Whether Pinterest can fetch `url` itself (Crier's own media at a PUBLIC_BASE_URL it can reach). */
export type ByUrl = (url: string) => boolean;

/** The pin's media_source for its images. */
export async function imageSource(input: PublishInput, media: MediaInput[], byUrl: ByUrl): Promise<Record<string, unknown>> {
  if (media.every((m) => byUrl(m.url))) {
    for (const m of media) checkImageType(m, (await input.openMedia(m.url)).contentType);
    if (media.length === 1) return { source_type: 'image_url', url: media[0]!.url };
    return { source_type: 'multiple_image_urls', items: media.map((m) => ({ url: m.url })) };
  }
  const items = [];
  for (const m of media) items.push(await base64Image(input, m.url, m.filename));
  if (items.length === 1) return { source_type: 'image_base64', ...items[0] };
  return { source_type: 'multiple_image_base64', items };
}

/** A video pin's cover: the block's image (by URL or as base64), else the first frame. */
export async function coverFields(input: PublishInput, coverUrl: string | undefined, byUrl: ByUrl): Promise<Record<string, unknown>> {
  if (!coverUrl) return { cover_image_key_frame_time: 0 };
  if (byUrl(coverUrl)) {
    checkImageType({ url: coverUrl, filename: 'pinterest.cover_image_url' }, (await input.openMedia(coverUrl)).contentType);
    return { cover_image_url: coverUrl };
  }
  const { content_type, data } = await base64Image(input, coverUrl, 'pinterest.cover_image_url');
  return { cover_image_content_type: content_type, cover_image_data: data };
}

async function base64Image(input: PublishInput, url: string, name: string): Promise<{ content_type: string; data: string }> {
  const { bytes, contentType } = await input.fetchMedia(url);
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  checkImageType({ url, filename: name }, type);
  return { content_type: type, data: bytes.toString('base64') };
}

function checkImageType(media: MediaInput, contentType: string): void {
  if (IMAGE_TYPES.has(contentType)) return;
  throw new PublishError('permanent', `pinterest: ${media.filename} is ${contentType}; Pinterest takes JPEG or PNG images`, undefined, 'media_rejected');
}

/**
 * The next step of the root's video: returns its media id once Pinterest has processed it, and throws
 * PublishWait with the checkpoint in between.
 */
export async function processedVideo(client: PinterestClient, input: PublishInput, cp: PinCheckpoint, timing: VideoTiming): Promise<string> {
  const media = input.containers[0]!.media[0]!;
  const v = cp.video;
  if (!v) {
    await openVideo(input, media);
    const registrations = (cp.registrations ?? 0) + 1;
    const registered = await client.registerVideo();
    throw new PublishWait(0, { ...cp, registrations, video: { ...registered, uploaded: false } }, `pinterest: ${media.filename} is registered`);
  }
  if (!v.uploaded) {
    // A step that began from here may follow a crash after the upload: Pinterest then has it already.
    if ((await client.mediaStatus(v.mediaId)) === 'registered') await upload(client, await openVideo(input, media), v, cp);
    const processing = { ...v, uploaded: true, since: new Date().toISOString() };
    throw new PublishWait(timing.pollMs, { ...cp, video: processing }, `pinterest is processing ${media.filename}`);
  }
  const status = await client.mediaStatus(v.mediaId);
  if (status === 'succeeded') return v.mediaId;
  if (status === 'failed') {
    throw new PublishError('permanent', `pinterest: Pinterest could not process ${media.filename} (media ${v.mediaId} failed)`, undefined, 'media_rejected');
  }
  if (Date.now() - Date.parse(v.since ?? new Date().toISOString()) > timing.maxProcessingMs) {
    throw new PublishError('permanent', `pinterest: ${media.filename} was still ${status} after ${Math.round(timing.maxProcessingMs / 60_000)} minutes of processing`, undefined, 'media_rejected');
  }
  const delayMs = Math.min(timing.maxPollMs, timing.pollMs * 2 ** (v.polls ?? 0));
  throw new PublishWait(delayMs, { ...cp, video: { ...v, polls: (v.polls ?? 0) + 1 } }, `pinterest is processing ${media.filename}`);
}

/** The form to the upload URL; a refusal (an expired policy) registers the video anew, a few times. */
async function upload(client: PinterestClient, source: MediaSource, v: VideoProgress, cp: PinCheckpoint): Promise<void> {
  const form = multipartForm(v.uploadParameters, source);
  try {
    await client.uploadForm(v.uploadUrl, form);
  } catch (error) {
    const refused = error instanceof PublishError && error.code === 'media_rejected';
    if (!refused || (cp.registrations ?? 1) >= MAX_REGISTRATIONS) throw error;
    throw new PublishWait(0, { position: 0, registrations: cp.registrations ?? 1 }, `pinterest: ${(error as Error).message}; registering the video again`);
  }
}

/**
 * multipart/form-data: every upload parameter as a field, then the file as `file` (S3's POST takes the
 * file last), read from the media source as it is sent; its exact length is known beforehand, since
 * S3 refuses a chunked body.
 */
export function multipartForm(fields: Record<string, string>, source: MediaSource): StreamedForm {
  const extension = source.contentType === 'video/quicktime' ? 'mov' : 'mp4';
  return streamedForm([...Object.entries(fields).map(([name, value]) => ({ name, value })), { name: 'file', filename: `video.${extension}`, source }]);
}

async function openVideo(input: PublishInput, media: MediaInput): Promise<MediaSource> {
  const source = await input.openMedia(media.url);
  if (!VIDEO_TYPES.has(source.contentType)) {
    throw new PublishError('permanent', `pinterest: ${media.filename} is ${source.contentType}; Pinterest videos are MP4, MOV or M4V`, undefined, 'media_rejected');
  }
  return source;
}
