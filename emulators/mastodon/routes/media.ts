// Media (https://docs.joinmastodon.org/methods/media/):
//  POST /api/v2/media: `file` (multipart), `description` (alt text, 1,500 characters at most), `focus`.
//    "200: MediaAttachment was created successfully, and the full-size file was processed
//    synchronously"; "202: MediaAttachment was created successfully, but the full-size file is still
//    processing. Note that the MediaAttachment's url will still be null, as the media is still being
//    processed in the background." Errors: 422 "Validation failed: File content type is invalid, File is invalid".
//  GET /api/v1/media/:id: "200: ... processed"; "206: Partial content ... still processing";
//    404 "Record not found" (another account's or unknown); 422 "Error processing thumbnail for uploaded media".
import type { Reply } from '../../shared/http.ts';
import { mediaEntity } from '../entities.ts';
import { recordNotFound, unprocessable } from '../errors.ts';
import { nextId, type Account, type MastodonWorld, type StoredMedia } from '../state.ts';
import { str, type Params } from '../validate.ts';

const MAX_DESCRIPTION = 1500;

function typeOf(contentType: string): StoredMedia['type'] | undefined {
  if (contentType === 'image/gif') return 'gifv';
  const major = contentType.split('/')[0];
  return major === 'image' ? 'image' : major === 'video' ? 'video' : major === 'audio' ? 'audio' : undefined;
}

export function createMedia(world: MastodonWorld, account: Account, params: Params): Reply {
  const file = params.file;
  const supported = world.configuration.media_attachments.supported_mime_types;
  if (!file || !file.bytes.length || !supported.includes(file.type)) return unprocessable('Validation failed: File content type is invalid, File is invalid');
  const type = typeOf(file.type)!;
  const limit = type === 'image' || type === 'gifv' ? world.configuration.media_attachments.image_size_limit : world.configuration.media_attachments.video_size_limit;
  if (file.bytes.length > limit) return unprocessable(`Validation failed: File file size must be less than ${Math.floor(limit / 1024 / 1024)} MB`);
  const description = str(params.values.description) ?? null;
  if (description !== null && [...description].length > MAX_DESCRIPTION) return unprocessable(`Validation failed: Description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
  // Images are processed at once unless a test asks otherwise; videos and audio always in the background.
  const pendingPolls = type === 'image' ? world.processingPolls : Math.max(1, world.processingPolls);
  const media: StoredMedia = {
    id: nextId(world), accountId: account.id, type, filename: file.filename, contentType: file.type, size: file.bytes.length,
    description, pendingPolls, held: world.holdProcessing, failed: false, statusId: null,
  };
  world.media.set(media.id, media);
  return { status: pendingPolls > 0 || media.held ? 202 : 200, body: mediaEntity(world, media) };
}

export function showMedia(world: MastodonWorld, account: Account, id: string): Reply {
  const media = world.media.get(id);
  if (!media || media.accountId !== account.id) return recordNotFound();
  if (media.failed) return unprocessable('Error processing thumbnail for uploaded media');
  if (media.held) return { status: 206, body: mediaEntity(world, media) };
  if (media.pendingPolls > 0) {
    media.pendingPolls -= 1;
    return { status: 206, body: { ...mediaEntity(world, media), url: null } };
  }
  return { status: 200, body: mediaEntity(world, media) };
}
