// POST /v5/pins as the emulator judges it: the PinCreate fields and their limits (title 100,
// description 800, alt_text 500, link 2,048), the board (the token's user's own), and every
// media_source type — images fetched from their URL or decoded from base64 and checked to be the JPEG
// or PNG they claim, 2 to 5 items for the multiple types, and a video only once its media succeeded,
// with one cover (URL, base64 or key frame).
import type { Reply } from '../shared/http.ts';
import { isPlainObject } from '../shared/http.ts';
import { sniff } from '../shared/sniff.ts';
import { fileOf, numericId, type PinterestPin, type PinterestStore, type ReceivedFile } from './store.ts';

export const apiError = (status: number, code: number, message: string): Reply => ({ status, body: { code, message } });
/** The example of the OpenAPI file's 404 for a board (GET /v5/boards/{board_id}/pins). */
export const boardNotFound = () => apiError(404, 404, 'Board not found.');
const invalid = (message: string) => apiError(400, 1, message);

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const LIMITS: [field: string, max: number][] = [['title', 100], ['description', 800], ['alt_text', 500], ['link', 2048]];

/** Downloads a URL the way Pinterest's fetcher would (the emulator's own fetch). */
export type Fetcher = (url: string) => Promise<{ bytes: Buffer; contentType: string }>;

class Refusal extends Error {
  readonly reply: Reply;
  constructor(reply: Reply) {
    super(String((reply.body as { message?: string }).message));
    this.reply = reply;
  }
}

export async function createPin(store: PinterestStore, user: { id: string; username: string }, body: unknown, fetcher: Fetcher): Promise<Reply> {
  const userId = user.id;
  if (!isPlainObject(body)) return invalid('Invalid request body: expected a JSON object');
  for (const [field, max] of LIMITS) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return invalid(`Invalid parameters: '${field}' must be a string`);
    if (typeof value === 'string' && [...value].length > max) return invalid(`Invalid parameters: '${field}' is longer than ${max} characters`);
  }
  if (typeof body.board_id !== 'string' || !/^\d+$/.test(body.board_id)) return invalid("Invalid parameters: 'board_id' is required and must be digits");
  const board = store.boards.get(body.board_id);
  if (!board || board.ownerId !== userId) return boardNotFound();
  if (!isPlainObject(body.media_source)) return invalid("Invalid parameters: 'media_source' is required");
  let media: { mediaType: string; files: ReceivedFile[]; source: Record<string, unknown> };
  try {
    media = await mediaOf(store, userId, body.media_source, fetcher);
  } catch (error) {
    if (error instanceof Refusal) return error.reply;
    throw error;
  }
  const text = (field: string) => (typeof body[field] === 'string' ? (body[field] as string) : null);
  const pin: PinterestPin = {
    id: numericId(8),
    ownerId: userId,
    boardId: board.id,
    title: text('title'),
    description: text('description'),
    link: text('link'),
    altText: text('alt_text'),
    mediaType: media.mediaType,
    mediaSource: media.source,
    files: media.files,
    createdAt: store.now(),
  };
  store.pins.push(pin);
  return { status: 201, body: pinBody(pin, user.username) };
}

/** A pin as the API answers it (Pin). */
export function pinBody(pin: PinterestPin, username: string): Record<string, unknown> {
  return {
    id: pin.id,
    created_at: pin.createdAt,
    board_id: pin.boardId,
    board_owner: { username },
    board_section_id: null,
    title: pin.title,
    description: pin.description,
    link: pin.link,
    alt_text: pin.altText,
    dominant_color: '#6E7874',
    parent_pin_id: pin.parentPinId ?? null,
    is_owner: true,
    is_standard: true,
    has_been_promoted: false,
    creative_type: pin.mediaType === 'video' ? 'VIDEO' : pin.mediaType === 'multiple_images' ? 'CAROUSEL' : 'REGULAR',
    media: pin.mediaType === 'multiple_images'
      ? { media_type: pin.mediaType, items: pin.files.map(() => ({ item_type: 'image', images: {} })) }
      : { media_type: pin.mediaType },
  };
}

async function mediaOf(store: PinterestStore, userId: string, source: Record<string, unknown>, fetcher: Fetcher) {
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
      return videoOf(store, userId, source, fetcher);
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

async function videoOf(store: PinterestStore, userId: string, source: Record<string, unknown>, fetcher: Fetcher) {
  const media = typeof source.media_id === 'string' ? store.media.get(source.media_id) : undefined;
  if (!media || media.ownerId !== userId) throw new Refusal(apiError(404, 404, 'Media not found.'));
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
