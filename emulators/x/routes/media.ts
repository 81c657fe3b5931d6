// The v2 media endpoints: one-shot POST /2/media/upload; chunked initialize → append → finalize;
// GET /2/media/upload (STATUS) polling; POST /2/media/metadata for alt text.
import { isPlainObject, jsonBody, rawBody } from '../../shared/http.ts';
import { sniff } from '../../shared/sniff.ts';
import { badQueryValue, emptyQueryValue, invalidRequest, type ParamError } from '../errors.ts';
import { mp4DurationMs } from '../mp4.ts';
import { parseMultipart } from '../multipart.ts';
import type { XRequest, XRoute } from './route.ts';
import { appendSchema, initializeSchema, metadataSchema, simpleUploadSchema, validate } from '../validate/schema.ts';
import { isVideoLike, MEDIA_EXPIRY_SECS, processingInfo, type XMedia, type XWorld } from '../state.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;
/** Per-category caps from the initialize docs (videos: default accounts; Premium doubles them). */
const MAX_BYTES: Record<string, number> = {
  tweet_image: 5 * MB, dm_image: 5 * MB, tweet_gif: 15 * MB, dm_gif: 15 * MB,
  tweet_video: 8 * GB, amplify_video: 8 * GB, dm_video: 512 * MB, subtitles: 5 * MB,
};
/** The server refuses append segments above 8 MB (the docs ask for ≤ 5 MB). */
const MAX_SEGMENT_BYTES = 8 * MB;
const ID = /^[0-9]{1,19}$/;

interface Fields {
  fields: Record<string, unknown>;
  media?: Buffer;
}

export function mediaRoutes(world: XWorld): XRoute[] {
  const { store } = world;
  const invalidId = (id: string): ParamError => ({ parameters: { media_id: [id] }, message: `Media ID [${id}] is invalid.` });
  const ownMedia = (req: XRequest, id: string): XMedia | undefined => {
    const media = store.media.get(id);
    return media && media.ownerId === req.user.id ? media : undefined;
  };
  const describe = (media: XMedia) => {
    const processing = processingInfo(world, media);
    return {
      id: media.id,
      media_key: media.mediaKey,
      size: media.size,
      expires_after_secs: store.mediaExpiresInSecs(media),
      ...(media.image ? { image: media.image } : {}),
      ...(processing ? { processing_info: processing } : {}),
    };
  };
  const finalize = (media: XMedia, bytes: Buffer) => {
    media.finalized = true;
    media.size = bytes.length;
    const sniffed = sniff(bytes);
    if (media.category.endsWith('_image') || media.category.endsWith('_gif')) {
      media.image = { image_type: sniffed?.mime ?? media.mediaType ?? 'image/jpeg', w: sniffed?.width, h: sniffed?.height };
    }
    if (isVideoLike(media.category)) {
      media.videoMs ??= mp4DurationMs(bytes);
      media.processing = { startedAtMs: world.clock.now(), outcome: world.failNextProcessing ? 'failed' : 'succeeded' };
      world.failNextProcessing = false;
    }
  };
  const tooLarge = (req: XRequest, category: string, size: number) => {
    const max = (MAX_BYTES[category] ?? 5 * MB) * (req.user.premium && category.includes('video') ? 2 : 1);
    return size > max ? invalidRequest({ parameters: { total_bytes: [String(size)] }, message: `File size exceeds ${max} bytes.` }) : undefined;
  };

  return [
    {
      method: 'POST',
      url: '/2/media/upload',
      handler: (req) => {
        const input = readFields(req);
        if (!input) return invalidRequest({ message: 'Request body must be a JSON object or multipart/form-data.' });
        const errors = validate(simpleUploadSchema, { ...input.fields, ...(input.media ? { media: '' } : {}) });
        if (errors.length > 0) return invalidRequest(...errors);
        const category = input.fields.media_category as string;
        const bytes = input.media ?? Buffer.alloc(0);
        const problem = tooLarge(req, category, bytes.length);
        if (problem) return problem;
        const media = store.createMedia(req.user, category, { additionalOwners: splitOwners(input.fields.additional_owners) });
        finalize(media, bytes);
        return { status: 200, body: { data: describe(media) } };
      },
    },
    {
      method: 'POST',
      url: '/2/media/upload/initialize',
      handler: (req) => {
        const body = jsonBody(req.body);
        if (!isPlainObject(body)) return invalidRequest({ message: 'Request body must be a JSON object.' });
        const errors = validate(initializeSchema, body);
        if (errors.length > 0) return invalidRequest(...errors);
        const mediaType = body.media_type as string | undefined;
        const category = (body.media_category as string | undefined) ?? inferCategory(mediaType);
        const totalBytes = body.total_bytes as number | undefined;
        const problem = totalBytes === undefined ? undefined : tooLarge(req, category, totalBytes);
        if (problem) return problem;
        const media = store.createMedia(req.user, category, {
          mediaType,
          totalBytes,
          additionalOwners: (body.additional_owners as string[] | undefined) ?? [],
        });
        return { status: 200, body: { data: { id: media.id, media_key: media.mediaKey, expires_after_secs: store.mediaExpiresInSecs(media) } } };
      },
    },
    {
      method: 'POST',
      url: '/2/media/upload/:id/append',
      handler: (req) => {
        if (!ID.test(req.params.id)) return badQueryValue('id', req.params.id);
        const media = ownMedia(req, req.params.id);
        if (!media || media.finalized) return invalidRequest(invalidId(req.params.id));
        const input = readFields(req);
        if (!input) return invalidRequest({ message: 'Request body must be a JSON object or multipart/form-data.' });
        const index = input.fields.segment_index;
        const asNumber = typeof index === 'string' && /^\d+$/.test(index) ? Number(index) : index;
        const errors = validate(appendSchema, { ...input.fields, segment_index: asNumber, ...(input.media ? { media: '' } : {}) });
        if (errors.length > 0) return invalidRequest(...errors);
        const chunk = input.media ?? Buffer.alloc(0);
        if (chunk.length > MAX_SEGMENT_BYTES) {
          return invalidRequest({ parameters: { media: [] }, message: `Segment size exceeds ${MAX_SEGMENT_BYTES} bytes.` });
        }
        media.segments.set(asNumber as number, chunk);
        return { status: 200, body: { data: { expires_at: Math.floor(media.createdAtMs / 1000) + MEDIA_EXPIRY_SECS } } };
      },
    },
    {
      method: 'POST',
      url: '/2/media/upload/:id/finalize',
      handler: (req) => {
        if (!ID.test(req.params.id)) return badQueryValue('id', req.params.id);
        const media = ownMedia(req, req.params.id);
        if (!media) return invalidRequest(invalidId(req.params.id));
        if (media.finalized) return { status: 200, body: { data: describe(media) } };
        const indexes = [...media.segments.keys()].sort((a, b) => a - b);
        const bytes = Buffer.concat(indexes.map((i) => media.segments.get(i) as Buffer));
        const contiguous = indexes.every((value, i) => value === i);
        if (!contiguous || indexes.length === 0 || (media.totalBytes !== undefined && bytes.length !== media.totalBytes)) {
          return invalidRequest({ parameters: { media_id: [media.id] }, message: 'Segments do not add up to provided total file size.' });
        }
        finalize(media, bytes);
        return { status: 200, body: { data: describe(media) } };
      },
    },
    {
      method: 'GET',
      url: '/2/media/upload',
      handler: (req) => {
        const { media_id: id, command } = req.query;
        if (command !== undefined && command !== 'STATUS') {
          return invalidRequest({ parameters: { command: [command] }, message: `The \`command\` query parameter value [${command}] is not one of [STATUS]` });
        }
        if (!id) return emptyQueryValue('media_id');
        if (!ID.test(id)) return badQueryValue('media_id', id);
        const media = ownMedia(req, id);
        if (!media || !media.finalized) return invalidRequest(invalidId(id));
        const data = describe(media);
        return { status: 200, body: { data: { ...data, processing_info: data.processing_info ?? { state: 'succeeded', progress_percent: 100 } } } };
      },
    },
    {
      method: 'POST',
      url: '/2/media/metadata',
      handler: (req) => {
        const body = jsonBody(req.body);
        if (!isPlainObject(body)) return invalidRequest({ message: 'Request body must be a JSON object.' });
        const errors = validate(metadataSchema, body);
        if (errors.length > 0) return invalidRequest(...errors);
        const media = ownMedia(req, body.id as string);
        if (!media) return invalidRequest(invalidId(body.id as string));
        const altText = (body.metadata as { alt_text?: { text: string } } | undefined)?.alt_text;
        if (altText) media.altText = altText.text;
        return { status: 200, body: { data: { id: media.id, associated_metadata: body.metadata ?? {} } } };
      },
    },
  ];
}

/**
 * Reads a JSON or multipart body. `media` is base64 in JSON and raw bytes in multipart ("base64-encoded
 * in JSON bodies, raw bytes in multipart bodies", MediaUploadRequest), with or without a filename.
 */
function readFields(req: XRequest): Fields | undefined {
  if (req.contentType.startsWith('multipart/form-data')) {
    const parts = parseMultipart(rawBody(req.body), req.contentType);
    if (!parts) return undefined;
    const out: Fields = { fields: {} };
    for (const part of parts) {
      if (part.name === 'media') out.media = part.data;
      // Another field sent as a file is no text the schema could take.
      else out.fields[part.name] = part.filename === undefined ? part.data.toString('utf8') : '';
    }
    return out;
  }
  const body = jsonBody(req.body);
  if (!isPlainObject(body)) return undefined;
  const { media, ...fields } = body;
  if (media === undefined) return { fields };
  if (typeof media !== 'string') return { fields: { ...fields, media } };
  return { fields, media: Buffer.from(media, 'base64') };
}

function inferCategory(mediaType: string | undefined): string {
  if (mediaType === 'image/gif') return 'tweet_gif';
  if (mediaType?.startsWith('video/')) return 'tweet_video';
  return 'tweet_image';
}

function splitOwners(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
}
