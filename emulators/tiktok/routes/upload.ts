// PUT {upload_url} (open-upload.tiktokapis.com on TikTok, the emulator's own origin here): the chunks
// of a FILE_UPLOAD video, in order, each with `Content-Range: bytes first-last/total` and a video
// Content-Type. Bodies arrive as streams and are hashed on the way in: only each chunk's SHA-256 and
// size are kept (and the whole video's SHA-256 once complete), never the bytes. A chunk counts once it
// arrived whole; one cut off (its sender died) leaves nothing behind. 206 after a chunk, 201 after the
// last; then processing begins (a file that is not a video ends FAILED: file_format_check_failed).
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash, type Hash } from 'node:crypto';
import { send, type Reply } from '../../shared/http.ts';
import { sniff } from '../../shared/sniff.ts';
import { apiError, internalError, invalidParams } from '../errors.ts';
import type { ChunkStall, Publish, Publishing } from '../publishing.ts';

const VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);
const RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

export async function registerUpload(app: FastifyInstance, publishing: Publishing, faultFor: (req: FastifyRequest) => Promise<Reply | undefined>): Promise<void> {
  await app.register(async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.put('/upload/', async (req: FastifyRequest, reply: FastifyReply) => {
      const fault = await faultFor(req);
      if (fault) return send(reply, fault);
      const query = req.query as Record<string, string | undefined>;
      const publish = publishing.publishes.get(query.upload_id ?? '');
      if (!publish?.upload) return send(reply, apiError(404, 'not_found', 'The upload URL is not valid.'));
      return send(reply, await receiveChunk(publishing, publish, req.headers as Record<string, string | undefined>, req.body as Readable | undefined));
    });
  });
}

async function receiveChunk(publishing: Publishing, publish: Publish, headers: Record<string, string | undefined>, body: Readable | undefined): Promise<Reply> {
  const upload = publish.upload!;
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!VIDEO_TYPES.has(contentType)) return invalidParams('Content-Type must be video/mp4, video/quicktime or video/webm.');
  const range = RANGE.exec(headers['content-range'] ?? '');
  if (!range) return invalidParams('Content-Range must be "bytes {first}-{last}/{total}".');
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  if (total !== upload.videoSize) return invalidParams(`Content-Range total ${total} is not the video_size ${upload.videoSize} given at init.`);
  const index = upload.chunks.length;
  if (index >= upload.totalChunkCount) return invalidParams('Every chunk was already uploaded.');
  const expectedFirst = index * upload.chunkSize;
  const expectedLast = index === upload.totalChunkCount - 1 ? upload.videoSize - 1 : expectedFirst + upload.chunkSize - 1;
  if (first !== expectedFirst || last !== expectedLast) {
    return apiError(416, 'invalid_params', `Chunks must be sent in order: expected bytes ${expectedFirst}-${expectedLast}, got ${first}-${last}.`);
  }
  if (await stalled(publishing, index, 'unread')) return internalError();
  const received = await hashed(body, last - first + 1, upload.hash);
  if (!received) return invalidParams(`The body is not the ${last - first + 1} bytes its Content-Range announces.`);
  if (upload.chunks.length !== index) return apiError(416, 'invalid_params', `Chunk ${index} arrived twice at once; chunks must be sent one after the other.`);
  if (index === 0) upload.head = received.head;
  upload.hash = received.video;
  upload.received += received.size;
  const final = upload.chunks.length + 1 === upload.totalChunkCount;
  const chunk = { publishId: publish.publishId, index, first, last, total, bytes: received.size, sha256: received.sha256, contentType, status: final ? 201 : 206, at: publishing.clock.now() };
  upload.chunks.push(chunk);
  publishing.chunks.push(chunk);
  if (final) {
    upload.sha256 = upload.hash.digest('hex');
    publishing.ready(publish, sniff(upload.head)?.mime.startsWith('video/') || contentType === 'video/webm' ? undefined : 'file_format_check_failed');
  }
  await stalled(publishing, index, 'unanswered');
  return { status: final ? 201 : 206 };
}

/** Hangs this PUT when a test asked for it (its sender is killed meanwhile); true when it did. */
async function stalled(publishing: Publishing, index: number, when: ChunkStall['when']): Promise<boolean> {
  const stall = publishing.stall;
  if (!stall || stall.index !== index || stall.when !== when) return false;
  publishing.stall = undefined;
  publishing.stalled.push(index);
  await new Promise((resolve) => setTimeout(resolve, stall.ms));
  publishing.stalled.splice(publishing.stalled.indexOf(index), 1);
  return true;
}

/**
 * The chunk's bytes hashed as they stream in, and the whole video's running hash carried on in a copy
 * (`video`), adopted only once the chunk is known whole: a cut-off chunk leaves it untouched and no
 * bytes are held. Undefined when the body is not `expected` bytes long.
 */
async function hashed(body: Readable | undefined, expected: number, video: Hash): Promise<{ size: number; sha256: string; head: Buffer; video: Hash } | undefined> {
  if (!body) return undefined;
  const hash = createHash('sha256');
  const next = video.copy();
  let head = Buffer.alloc(0);
  let size = 0;
  try {
    for await (const piece of body) {
      const buffer = piece as Buffer;
      size += buffer.length;
      if (size > expected) return undefined;
      hash.update(buffer);
      next.update(buffer);
      if (head.length < 64) head = Buffer.concat([head, buffer.subarray(0, 64 - head.length)]);
    }
  } catch {
    return undefined; // the sender went away mid-chunk
  }
  if (size !== expected) return undefined;
  return { size, sha256: hash.digest('hex'), head, video: next };
}
