// The media_source of POST /v5/pins made into what Pinterest received: images fetched from their URL
// or decoded from base64 and checked to be the JPEG or PNG they claim, 2 to 5 items for the multiple
// types, and a video only once its media succeeded, with one cover (URL, base64 or key frame).
// A refusal is thrown as a Refusal carrying Pinterest's answer.
import type { Reply } from '../shared/http.ts';
import { isPlainObject } from '../shared/http.ts';
import { sniff } from '../shared/sniff.ts';
import { invalid, mediaNotFound } from './errors.ts';
import type { Fetcher } from './routes/common.ts';
import { fileOf, type PinterestState, type ReceivedFile } from './state.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

export class Refusal extends Error {
  readonly reply: Reply;
  constructor(reply: Reply) {
    super(String((reply.body as { message?: string }).message));
    this.reply = reply;
  }
}

/** What a media_source gave: the pin's media type, the files received, and the source as recorded. */
export interface ResolvedMedia {
  mediaType: string;
  files: ReceivedFile[];
  source: Record<string, unknown>;
}

export async function mediaOf(state: PinterestState, userId: string, source: Record<string, unknown>, fetcher: Fetcher): Promise<ResolvedMedia> {
  switch (source.source_type) {
    case 'image_url': {
      const file = await fetched(fetcher, source.url);
      return { mediaType: 'image', files: [file], source: { ...source } };
    }
    case 'image_base64': {
      const file = decoded(source);
      return { mediaType: 'image', files: [file], source: { source_type: 'image_base64', content_type: source.content_type, data: file } };
    }
    case 'multiple_image_urls': {
      const items = itemsOf(source);
      const files = [];
      for (const item of items) files.push(await fetched(fetcher, item.url));
      return { mediaType: 'multiple_images', files, source: { ...source } };
    }
    case 'multiple_image_base64': {
      const files = itemsOf(source).map(decoded);
      return { mediaType: 'multiple_images', files, source: { source_type: 'multiple_image_base64', items: files } };
    }
    case 'video_id':
      return videoOf(state, userId, source, fetcher);
    case 'pin_url':
      throw new Refusal(invalid('pin_url media sources are only available to a list of beta users'));
    default:
      throw new Refusal(invalid(`Invalid parameters: unknown media_source.source_type ${JSON.stringify(source.source_type)}`));
  }
}

function itemsOf(source: Record<string, unknown>): Record<string, unknown>[] {
  const items = source.items;
  if (!Array.isArray(items) || items.length < 2 || items.length > 5 || !items.every(isPlainObject)) {
    throw new Refusal(invalid(`Invalid parameters: media_source.items must hold 2 to 5 images for ${String(source.source_type)}`));
  }
  return items as Record<string, unknown>[];
}

async function fetched(fetcher: Fetcher, url: unknown): Promise<ReceivedFile> {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Refusal(invalid('Invalid parameters: an image url is required'));
  let got: { bytes: Buffer; contentType: string };
  try {
    got = await fetcher(url);
  } catch {
    throw new Refusal(invalid(`Sorry, we could not fetch the image at ${url}.`));
  }
  const sniffed = sniff(got.bytes)?.mime;
  if (!sniffed || !IMAGE_TYPES.includes(sniffed)) throw new Refusal(invalid(`The image at ${url} is not a JPEG or PNG image.`));
  return fileOf(got.bytes, sniffed, url);
}

function decoded(item: Record<string, unknown>): ReceivedFile {
  const type = item.content_type;
  if (typeof type !== 'string' || !IMAGE_TYPES.includes(type)) throw new Refusal(invalid("Invalid parameters: image content_type must be 'image/jpeg' or 'image/png'"));
  if (typeof item.data !== 'string' || !/^[a-zA-Z0-9+/=]+$/.test(item.data)) throw new Refusal(invalid('Invalid parameters: image data must be base64'));
  const bytes = Buffer.from(item.data, 'base64');
  if (sniff(bytes)?.mime !== type) throw new Refusal(invalid(`The image data is not a valid ${type} image.`));
  return fileOf(bytes, type, 'base64');
}

async function videoOf(state: PinterestState, userId: string, source: Record<string, unknown>, fetcher: Fetcher): Promise<ResolvedMedia> {
  const media = typeof source.media_id === 'string' ? state.media.get(source.media_id) : undefined;
  if (!media || media.ownerId !== userId) throw new Refusal(mediaNotFound());
  // Pinterest's documented order: the pin (and its cover) once the media succeeded. A cover attached
  // earlier yields a corrupt video pin, so the emulator refuses it and a test can see the refusal.
  if (media.status !== 'succeeded') throw new Refusal(invalid(`The video is not ready: media ${media.id} is ${media.status}.`));
  const covers = ['cover_image_url', 'cover_image_data', 'cover_image_key_frame_time'].filter((k) => source[k] !== undefined);
  if (covers.length !== 1) throw new Refusal(invalid('Invalid parameters: a video pin takes one cover: cover_image_url, cover_image_data or cover_image_key_frame_time'));
  const files: ReceivedFile[] = [];
  const recorded: Record<string, unknown> = { ...source };
  if (source.cover_image_url !== undefined) files.push(await fetched(fetcher, source.cover_image_url));
  if (source.cover_image_data !== undefined) {
    const cover = decoded({ content_type: source.cover_image_content_type, data: source.cover_image_data });
    files.push(cover);
    recorded.cover_image_data = cover;
  }
  if (source.cover_image_key_frame_time !== undefined && (!Number.isInteger(source.cover_image_key_frame_time) || (source.cover_image_key_frame_time as number) < 0)) {
    throw new Refusal(invalid('Invalid parameters: cover_image_key_frame_time must be a whole number of seconds'));
  }
  return { mediaType: 'video', files, source: recorded };
}
