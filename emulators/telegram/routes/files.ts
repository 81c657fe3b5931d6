// The files a message carries (https://core.telegram.org/bots/api#sending-files): "1. If the file is
// already stored somewhere on the Telegram servers, you don't need to reupload it: each file object
// has a file_id field, simply pass this file_id as a parameter instead of uploading. [...] 2. Provide
// Telegram with an HTTP URL for the file to be sent. Telegram will download and send the file. 5 MB
// max size for photos and 20 MB max for other types of content. 3. Post the file using
// multipart/form-data in the usual way that files are uploaded via the browser. 10 MB max size for
// photos, 50 MB for other files." In an album, "attach://<file_attach_name>" names the multipart part.
import { randomBytes } from 'node:crypto';
import { bodyChunks, withMediaResponse } from '../../shared/media-fetch.ts';
import { sniff } from '../../shared/sniff.ts';
import { badRequest, tooLarge, type Answer } from '../errors.ts';
import type { StoredFile, TelegramWorld } from '../state.ts';
import type { Params, UploadedFile } from '../validate.ts';

const MB = 1024 * 1024;
export const FILE_LIMITS = { url: { photo: 5 * MB, other: 20 * MB }, upload: { photo: 10 * MB, other: 50 * MB } };

type Kind = StoredFile['kind'];

/** The file a parameter names, stored (a new file_id for new bytes), or the refusal. */
export async function resolveFile(world: TelegramWorld, params: Params, value: UploadedFile | string | undefined, kind: Kind): Promise<StoredFile | Answer> {
  if (value === undefined) return badRequest(`there is no ${kind} in the request`);
  if (typeof value !== 'string') return fromUpload(world, value, kind);
  if (value.startsWith('attach://')) {
    const part = params.files.get(value.slice('attach://'.length));
    return part ? fromUpload(world, part, kind) : badRequest('wrong file identifier/HTTP URL specified');
  }
  if (/^https?:\/\//i.test(value)) return fromUrl(world, value, kind);
  const known = world.files.get(value);
  if (!known) return badRequest('wrong file identifier/HTTP URL specified');
  if (known.kind !== kind) return badRequest(`wrong file identifier/HTTP URL specified`);
  return { ...known, came: 'file_id' };
}

function fromUpload(world: TelegramWorld, file: UploadedFile, kind: Kind): StoredFile | Answer {
  const limit = FILE_LIMITS.upload[kind === 'photo' ? 'photo' : 'other'];
  if (file.bytes.length > FILE_LIMITS.upload.other) return tooLarge();
  if (file.bytes.length > limit) return badRequest('file is too big');
  return store(world, file.bytes, kind, 'upload', file.filename, file.type);
}

async function fromUrl(world: TelegramWorld, url: string, kind: Kind): Promise<StoredFile | Answer> {
  const limit = FILE_LIMITS.url[kind === 'photo' ? 'photo' : 'other'];
  let fetched: { bytes: Buffer; type: string } | 'too big' | 'failed';
  try {
    fetched = await withMediaResponse(url, { ca: world.fetchCa, ...(world.fetchMedia ? { fetchMedia: world.fetchMedia } : {}) }, async (response) => {
      if (!response.ok) return 'failed' as const;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of bodyChunks(response)) {
        size += chunk.length;
        if (size > limit) return 'too big' as const;
        chunks.push(Buffer.from(chunk));
      }
      return { bytes: Buffer.concat(chunks), type: (response.headers.get('content-type') ?? '').split(';')[0]!.trim() };
    });
  } catch {
    fetched = 'failed';
  }
  if (fetched === 'failed' || fetched === 'too big') return badRequest('failed to get HTTP URL content');
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || undefined;
  const stored = store(world, fetched.bytes, kind, 'url', name, fetched.type);
  return 'fileId' in stored ? { ...stored, url } : stored;
}

function store(world: TelegramWorld, bytes: Buffer, kind: Kind, came: StoredFile['came'], fileName: string | undefined, declared: string): StoredFile | Answer {
  const sniffed = sniff(bytes);
  if (kind === 'photo' && !sniffed?.mime.startsWith('image/')) return badRequest('IMAGE_PROCESS_FAILED');
  if (kind === 'video' && sniffed && !sniffed.mime.startsWith('video/')) return badRequest('wrong type of the web page content');
  const file: StoredFile = {
    kind,
    fileId: `${kind[0]!.toUpperCase()}Q${randomBytes(24).toString('base64url')}`,
    fileUniqueId: `AQ${randomBytes(8).toString('base64url')}`,
    size: bytes.length,
    mime: sniffed?.mime ?? (declared || 'application/octet-stream'),
    came,
    ...(kind === 'photo' ? {} : { fileName: fileName ?? (kind === 'video' ? 'video.mp4' : 'document') }),
    ...(sniffed?.width ? { width: sniffed.width, height: sniffed.height } : {}),
  };
  world.files.set(file.fileId, file);
  return file;
}
