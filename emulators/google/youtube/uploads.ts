// The upload host's paths (www.googleapis.com/upload/youtube/v3/…): videos.insert as a resumable
// session — the POST with the metadata answers 200 and the session URI in `Location`; each PUT of a
// chunk (`Content-Range: bytes S-E/TOTAL`; every chunk but the last a multiple of 256 KiB) answers
// 308 with `Range: bytes=0-N`, the last one 201 with the video; a PUT with `bytes */TOTAL` asks what
// the session has (308 with Range, none when nothing arrived, or 200 with the video) — and
// thumbnails.set with the raw image. Bodies arrive as streams and only a hash and a count are kept.
// videos.insert as one multipart request is in multipart.ts; query parameters are checked by ../validate/youtube-query.ts.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import { send, type Reply } from '../../shared/http.ts';
import { richError, youtubeError } from '../errors.ts';
import type { GoogleWorld } from '../state/world.ts';
import { authenticate, charged, chargedUpload, UPLOAD_SCOPES } from './auth.ts';
import { checkedResource, videoResource } from './metadata.ts';
import { insertMultipart } from './multipart.ts';
import { checkedQuery } from '../validate/youtube-query.ts';
import type { CallRecord, UploadSession, YoutubeState } from './state.ts';

export const CHUNK_UNIT = 256 * 1024;
const VIDEO_PATH = '/upload/youtube/v3/videos';
const THUMBNAIL_PATH = '/upload/youtube/v3/thumbnails/set';
/** The session's metadata is small JSON: more is refused. */
const METADATA_LIMIT = 1024 * 1024;

type Handler = (req: FastifyRequest, query: Record<string, string | undefined>) => Promise<Reply>;

export function mountUploads(app: FastifyInstance, world: GoogleWorld, state: YoutubeState, faults: FaultQueue): void {
  // A session URI carries `upload_id`, which Google adds to it and no method declares.
  const logged = (methodId: string, handler: Handler, extra: string[] = []) => async (req: FastifyRequest, reply: FastifyReply) => {
    const checked = checkedQuery(methodId, req.query, extra);
    const { query } = checked;
    const path = req.url.split('?')[0]!;
    const record: CallRecord = { method: req.method, path, query, status: 0, ...(req.headers['content-range'] ? { contentRange: String(req.headers['content-range']) } : {}) };
    state.calls.push(record);
    const fault = faults.take(req.method, path);
    let out: Reply;
    if (fault) {
      await drain(req.body as Readable);
      if (fault.delayMs) await sleep(fault.delayMs);
      out = { status: fault.status, headers: fault.headers, body: fault.body ?? richError(fault.status, 'The service is currently unavailable.').body };
    } else if (!checked.ok) {
      await drain(req.body as Readable);
      out = checked.reply;
    } else {
      out = await handler(req, query);
    }
    record.status = out.status;
    return send(reply, out);
  };

  app.register(async (scope) => {
    // Upload bodies are handed over as the request stream itself: never buffered, never capped.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.post(VIDEO_PATH, logged('youtube.videos.insert', (req, query) => startSession(world, state, req, query)));
    scope.put(VIDEO_PATH, logged('youtube.videos.insert', (req, query) => putChunk(world, state, req, query), ['upload_id']));
    scope.post(THUMBNAIL_PATH, logged('youtube.thumbnails.set', (req, query) => setThumbnail(world, state, req, query)));
  });
}

async function startSession(world: GoogleWorld, state: YoutubeState, req: FastifyRequest, query: Record<string, string | undefined>): Promise<Reply> {
  // Google's client libraries for Node send a small video in one multipart/related request.
  if (query.uploadType === 'multipart') return insertMultipart(world, state, req, query);
  const text = await readSmall(req.body as Readable);
  const caller = authenticate(world, req.headers.authorization, UPLOAD_SCOPES);
  if (!caller.ok) return caller.reply;
  if (query.uploadType !== 'resumable') return youtubeError(400, 'badRequest', 'The emulator takes resumable (uploadType=resumable) and multipart (uploadType=multipart) uploads only.', 'global', 'uploadType');
  const parts = (query.part ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (!parts.includes('snippet') || !parts.includes('status')) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  let body: unknown;
  try {
    body = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return youtubeError(400, 'parseError', 'Parse Error', 'global');
  }
  const checked = checkedResource(body);
  if (!checked.ok) return checked.reply;
  const contentType = String(req.headers['x-upload-content-type'] ?? 'application/octet-stream').toLowerCase();
  if (!contentType.startsWith('video/') && contentType !== 'application/octet-stream') {
    return youtubeError(400, 'mediaBodyRequired', `Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`, 'global');
  }
  const declared = req.headers['x-upload-content-length'];
  const total = declared === undefined ? undefined : Number(declared);
  if (total !== undefined && (!Number.isInteger(total) || total <= 0)) return youtubeError(400, 'badRequest', 'Invalid X-Upload-Content-Length', 'global');
  const cap = state.uploadCap.get(caller.channel.id);
  if (cap !== undefined && (state.uploadsByChannel.get(caller.channel.id) ?? 0) >= cap) {
    return youtubeError(400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.', 'youtube.video');
  }
  const refused = chargedUpload(state, caller.clientId);
  if (refused) return refused;
  const session = state.openSession(caller.clientId, caller.channel.id, checked.resource, total, contentType);
  const origin = `http://${req.headers.host}`;
  const location = `${origin}${VIDEO_PATH}?uploadType=resumable&part=${encodeURIComponent(parts.join(','))}&upload_id=${session.uploadId}`;
  return { status: 200, headers: { location, 'x-guploader-uploadid': session.uploadId } };
}

async function putChunk(world: GoogleWorld, state: YoutubeState, req: FastifyRequest, query: Record<string, string | undefined>): Promise<Reply> {
  const body = req.body as Readable;
  const session = state.sessions.get(query.upload_id ?? '');
  if (!session) {
    await drain(body);
    return youtubeError(404, 'notFound', 'The upload session was not found or has expired; start a new one.', 'global');
  }
  const caller = authenticate(world, req.headers.authorization, UPLOAD_SCOPES);
  if (!caller.ok) {
    await drain(body);
    return caller.reply;
  }
  const length = Number(req.headers['content-length'] ?? 0);
  const range = parseRange(req.headers['content-range'], length);
  if (!range) {
    await drain(body);
    return youtubeError(400, 'badRequest', `Invalid Content-Range: ${req.headers['content-range']}`, 'global');
  }
  if (range.query) {
    await drain(body);
    session.queries += 1;
    return statusOf(session, state, caller.channel.title, 200);
  }
  if (session.videoId) {
    await drain(body);
    return statusOf(session, state, caller.channel.title, 200);
  }
  const problem = chunkProblem(session, range);
  if (problem) {
    await drain(body);
    return youtubeError(400, 'badRequest', problem, 'global');
  }
  session.total ??= range.total;
  const taken = await take(session, body, range);
  if (!taken) return { status: 400, body: youtubeError(400, 'badRequest', 'The chunk was shorter than its Content-Range.', 'global').body };
  if (session.received === session.total) state.completeSession(session);
  // The chunk is taken (and the video made, for the last one) before the answer is held.
  if (session.holdAfterChunk?.index === session.chunks.length - 1) await holdAnswer(req, session.holdAfterChunk.ms);
  return statusOf(session, state, caller.channel.title, 201);
}

interface ChunkRange {
  query: boolean;
  start: number;
  end: number;
  total: number | undefined;
}

// `bytes */T` (a status query), `bytes S-E/T`, `bytes S-E/*`, or no header: the whole file at once.
function parseRange(header: string | string[] | undefined, length: number): ChunkRange | undefined {
  if (header === undefined) return { query: false, start: 0, end: length - 1, total: length };
  const value = String(header).trim();
  const asked = /^bytes \*\/(\d+|\*)$/.exec(value);
  if (asked) return { query: true, start: 0, end: -1, total: asked[1] === '*' ? undefined : Number(asked[1]) };
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value);
  if (!match) return undefined;
  const [start, end] = [Number(match[1]), Number(match[2])];
  if (end < start || end - start + 1 !== length) return undefined;
  return { query: false, start, end, total: match[3] === '*' ? undefined : Number(match[3]) };
}

/** What is wrong with a chunk before its bytes are read, if anything. */
function chunkProblem(session: UploadSession, range: ChunkRange): string | undefined {
  const total = session.total ?? range.total;
  if (session.total !== undefined && range.total !== undefined && range.total !== session.total) {
    return `The Content-Range total ${range.total} differs from the declared X-Upload-Content-Length ${session.total}.`;
  }
  if (range.start > session.received) {
    return `Invalid request. According to the Content-Range header, the upload offset is ${range.start} byte(s), which exceeds already uploaded size of ${session.received} byte(s).`;
  }
  const final = total !== undefined && range.end + 1 === total;
  if (total !== undefined && range.end + 1 > total) return `The Content-Range end ${range.end} is past the total ${total}.`;
  if (!final && (range.end + 1 - range.start) % CHUNK_UNIT !== 0) {
    return `Invalid request. The number of bytes uploaded is required to be equal or greater than ${CHUNK_UNIT}, except for the final request (it's recommended to be the exact multiple of ${CHUNK_UNIT}). The received request contained ${range.end + 1 - range.start} bytes, which does not meet this requirement.`;
  }
  return undefined;
}

/**
 * Reads the chunk into the session's hash: bytes it already has (a chunk sent again from an earlier
 * offset) are skipped. A chunk cut short (the client died) is dropped whole: false.
 */
async function take(session: UploadSession, body: Readable, range: ChunkRange): Promise<boolean> {
  const hash = session.hash.copy();
  let offset = range.start;
  const from = session.received;
  try {
    for await (const piece of body) {
      const bytes = piece as Buffer;
      const skip = Math.max(0, Math.min(bytes.length, from - offset));
      if (skip < bytes.length) hash.update(bytes.subarray(skip));
      offset += bytes.length;
    }
  } catch {
    return false;
  }
  if (offset !== range.end + 1) return false;
  if (range.end + 1 > from) {
    session.hash = hash;
    session.chunks.push({ start: from, end: range.end });
    session.received = range.end + 1;
  }
  return true;
}

function statusOf(session: UploadSession, state: YoutubeState, channelTitle: string, doneStatus: number): Reply {
  if (session.videoId) {
    const video = state.videos.get(session.videoId)!;
    return { status: doneStatus, body: videoResource(video, channelTitle, new Set(['snippet', 'status'])) };
  }
  // No Range header at all when nothing arrived yet.
  return { status: 308, headers: session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {} };
}

async function setThumbnail(world: GoogleWorld, state: YoutubeState, req: FastifyRequest, query: Record<string, string | undefined>): Promise<Reply> {
  const image = await readCapped(req.body as Readable, state.thumbnailMaxBytes);
  const caller = authenticate(world, req.headers.authorization, UPLOAD_SCOPES);
  if (!caller.ok) return caller.reply;
  // The discovery document offers thumbnails.set as `simple` (uploadType=media) and `resumable`
  // uploads; only the simple one is emulated. Without uploadType Google's answer is not documented:
  // it is taken, and `thumbnailSets()` says which was sent.
  const uploadType = query.uploadType ?? null;
  if (uploadType !== null && uploadType !== 'media') {
    return youtubeError(400, 'badRequest', `The emulator takes thumbnails.set as a simple upload only (uploadType=media), not uploadType=${uploadType}.`, 'global', 'uploadType');
  }
  if (!query.videoId) return youtubeError(400, 'required', 'Required parameter: videoId', 'global', 'videoId');
  const video = state.videos.get(query.videoId);
  if (!video) return youtubeError(404, 'videoNotFound', 'The video that you are trying to update cannot be found.', 'youtube.thumbnail', 'videoId');
  const contentType = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const record = (status: number, reply: Reply): Reply => {
    state.thumbnailSets.push({ videoId: video.id, status, bytes: image.bytes, contentType, sha256: image.sha256, uploadType });
    return reply;
  };
  if (video.channelId !== caller.channel.id || state.refuseThumbnails) {
    const message = state.refuseThumbnails ?? 'The thumbnail can\'t be set for the specified video. The request might not be properly authorized.';
    return record(403, youtubeError(403, 'forbidden', message, 'youtube.thumbnail'));
  }
  if (image.bytes === 0) return record(400, youtubeError(400, 'mediaBodyRequired', 'The request does not include the image content.', 'youtube.thumbnail'));
  if (image.bytes > state.thumbnailMaxBytes) {
    return record(413, youtubeError(413, 'uploadTooLarge', `Media larger than ${state.thumbnailMaxBytes} bytes is not accepted.`, 'global'));
  }
  if (!image.jpegOrPng) return record(400, youtubeError(400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail'));
  const refused = charged(state, caller.clientId, state.costs.thumbnail);
  if (refused) return record(403, refused);
  video.thumbnail = { bytes: image.bytes, sha256: image.sha256, contentType };
  const url = (size: string) => `https://i.ytimg.example/vi/${video.id}/${size}.jpg?custom=true`;
  return record(200, {
    status: 200,
    body: {
      kind: 'youtube#thumbnailSetResponse',
      etag: Buffer.from(`thumb:${video.id}:${image.sha256}`).toString('base64url').slice(0, 27),
      items: [{ default: { url: url('default'), width: 120, height: 90 }, medium: { url: url('mqdefault'), width: 320, height: 180 }, high: { url: url('hqdefault'), width: 480, height: 360 } }],
    },
  });
}

/** An image's hash, size and whether it starts as a JPEG or a PNG; bytes past `cap` are only counted. */
async function readCapped(body: Readable | undefined, cap: number): Promise<{ bytes: number; sha256: string; jpegOrPng: boolean }> {
  const hash = createHash('sha256');
  let bytes = 0;
  let head = Buffer.alloc(0);
  for await (const piece of body ?? []) {
    const chunk = piece as Buffer;
    if (head.length < 8) head = Buffer.concat([head, chunk.subarray(0, 8)]);
    if (bytes <= cap) hash.update(chunk);
    bytes += chunk.length;
  }
  const jpegOrPng = head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) || head.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'));
  return { bytes, sha256: hash.digest('hex'), jpegOrPng };
}

async function readSmall(body: Readable | undefined): Promise<string | undefined> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of body ?? []) {
    size += (piece as Buffer).length;
    if (size <= METADATA_LIMIT) pieces.push(piece as Buffer);
  }
  return size === 0 ? undefined : Buffer.concat(pieces).toString('utf8');
}

async function drain(body: Readable | undefined): Promise<void> {
  if (!body || typeof (body as Readable)[Symbol.asyncIterator] !== 'function') return;
  try {
    for await (const _ of body) { /* discarded */ }
  } catch {
    // the client went away
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits `ms` before answering, or until the client is gone (its connection closed): nobody is left to answer. */
function holdAnswer(req: FastifyRequest, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = req.raw.socket;
    const done = () => {
      clearTimeout(timer);
      socket.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    socket.once('close', done);
  });
}
