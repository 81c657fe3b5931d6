// The tus 1.0.0 endpoint behind a video's `upload.upload_link` (files.tus.vimeo.com on Vimeo, the
// emulator's own origin here, under /tus/files/<token>): PATCH appends bytes at Upload-Offset, HEAD
// says how many arrived. As tus.io's protocol says: no or another Tus-Resumable → 412 (with
// Tus-Version), another Content-Type → 415, an Upload-Offset other than the server's → 409, an unknown
// upload → 404, more bytes than Upload-Length → 413; a success is 204 with the new Upload-Offset.
// Bodies arrive as streams and are hashed on the way in; bytes of a request cut short are kept (the
// offset a HEAD then reports counts them), as a tus server does.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authScheme, send, type Reply } from '../../shared/http.ts';
import type { VideoStore, VimeoVideo } from '../state.ts';

const TUS_VERSION = '1.0.0';
const OFFSET_TYPE = 'application/offset+octet-stream';

/** One PATCH as received: where it claimed to start, what arrived, what was answered. */
export interface TusPatch {
  videoId: string | null;
  uploadOffset: string | undefined;
  contentType: string | undefined;
  tusResumable: string | undefined;
  /** Bytes of the body taken into the upload. */
  received: number;
  /** Bytes of the body read and thrown away (a refused PATCH). */
  discarded: number;
  status: number;
  /** 'none' on Vimeo's tus host: the upload link is the credential. */
  auth: 'basic' | 'bearer' | 'none' | 'other';
}

export interface TusHead {
  videoId: string | null;
  status: number;
  uploadOffset: number | null;
}

export interface TusLog {
  patches: TusPatch[];
  heads: TusHead[];
  /** How long to hold this request's answer once it is handled (Stalls.take). */
  stall(method: string, path: string, uploadOffset?: string): number;
}

const tusHeaders = (extra: Record<string, string> = {}) => ({ 'tus-resumable': TUS_VERSION, 'cache-control': 'no-store', ...extra });

async function drain(body: Readable | undefined, onChunk: (chunk: Buffer) => void): Promise<void> {
  if (!body) return;
  try {
    for await (const chunk of body) onChunk(chunk as Buffer);
  } catch {
    // The client went away mid-body: what arrived stays counted.
  }
}

/** A PATCH answered by an injected fault: logged as received, none of its bytes taken in. */
function faultedPatch(store: VideoStore, req: FastifyRequest, status: number): TusPatch {
  return {
    videoId: store.byUploadToken.get((req.params as { token: string }).token)?.id ?? null,
    uploadOffset: req.headers['upload-offset'] as string | undefined,
    contentType: req.headers['content-type'],
    tusResumable: req.headers['tus-resumable'] as string | undefined,
    received: 0,
    discarded: 0,
    status,
    auth: authScheme(req.headers.authorization),
  };
}

function patchHandler(store: VideoStore, log: TusLog) {
  return async (req: FastifyRequest, body: Readable | undefined): Promise<Reply> => {
    const video = store.byUploadToken.get((req.params as { token: string }).token);
    const entry: TusPatch = {
      videoId: video?.id ?? null,
      uploadOffset: req.headers['upload-offset'] as string | undefined,
      contentType: req.headers['content-type'],
      tusResumable: req.headers['tus-resumable'] as string | undefined,
      received: 0,
      discarded: 0,
      status: 0,
      auth: authScheme(req.headers.authorization),
    };
    log.patches.push(entry);
    const refuse = async (status: number, message: string, headers: Record<string, string> = {}): Promise<Reply> => {
      await drain(body, (chunk) => { entry.discarded += chunk.length; });
      entry.status = status;
      return { status, body: message, headers: tusHeaders(headers) };
    };
    if (entry.tusResumable !== TUS_VERSION) return refuse(412, 'Tus-Resumable 1.0.0 is required', { 'tus-version': TUS_VERSION });
    if (!video) return refuse(404, 'upload not found');
    if ((entry.contentType ?? '').split(';')[0]!.trim().toLowerCase() !== OFFSET_TYPE) return refuse(415, `Content-Type must be ${OFFSET_TYPE}`);
    if (!/^\d+$/.test(entry.uploadOffset ?? '')) return refuse(400, 'Upload-Offset must be a whole number');
    if (Number(entry.uploadOffset) !== video.offset) return refuse(409, `Upload-Offset ${entry.uploadOffset} does not match the upload's offset ${video.offset}`);
    const overflow = await receive(store, video, body, entry);
    if (overflow) {
      entry.status = 413;
      return { status: 413, body: `the upload is ${video.size} bytes (Upload-Length)`, headers: tusHeaders({ 'upload-offset': String(video.offset) }) };
    }
    const stallMs = log.stall('PATCH', req.url.split('?')[0]!, entry.uploadOffset);
    if (stallMs > 0) await new Promise((resolve) => setTimeout(resolve, stallMs));
    entry.status = 204;
    return { status: 204, headers: tusHeaders({ 'upload-offset': String(video.offset) }) };
  };
}

/** Takes the body's bytes in up to Upload-Length; true when more were sent than fit. */
async function receive(store: VideoStore, video: VimeoVideo, body: Readable | undefined, entry: TusPatch): Promise<boolean> {
  let overflow = false;
  await drain(body, (chunk) => {
    const room = video.size - video.offset;
    const taken = chunk.length <= room ? chunk : chunk.subarray(0, room);
    if (taken.length) store.receive(video, taken);
    entry.received += taken.length;
    entry.discarded += chunk.length - taken.length;
    if (chunk.length > room) overflow = true;
  });
  return overflow;
}

function headHandler(store: VideoStore, log: TusLog) {
  return (req: FastifyRequest): Reply => {
    const video = store.byUploadToken.get((req.params as { token: string }).token);
    const entry: TusHead = { videoId: video?.id ?? null, status: 0, uploadOffset: null };
    log.heads.push(entry);
    if (req.headers['tus-resumable'] !== TUS_VERSION) {
      entry.status = 412;
      return { status: 412, headers: tusHeaders({ 'tus-version': TUS_VERSION }) };
    }
    if (!video) {
      entry.status = 404;
      return { status: 404, headers: tusHeaders() };
    }
    entry.status = 200;
    entry.uploadOffset = video.offset;
    return { status: 200, headers: tusHeaders({ 'upload-offset': String(video.offset), 'upload-length': String(video.size) }) };
  };
}

/**
 * Serves PATCH and HEAD /tus/files/:token in a scope of its own, where bodies of any (or no) content
 * type arrive as streams instead of the buffers the API routes parse.
 */
export async function registerTus(app: FastifyInstance, store: VideoStore, log: TusLog, faultFor: (req: FastifyRequest) => Promise<Reply | undefined>): Promise<void> {
  const patch = patchHandler(store, log);
  const head = headHandler(store, log);
  await app.register(async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.route({
      method: 'PATCH',
      url: '/tus/files/:token',
      handler: async (req, reply) => {
        const fault = await faultFor(req);
        if (fault) {
          log.patches.push(faultedPatch(store, req, fault.status));
          return send(reply, fault);
        }
        return send(reply, await patch(req, req.body as Readable | undefined));
      },
    });
    scope.route({
      method: 'HEAD',
      url: '/tus/files/:token',
      handler: async (req, reply) => {
        const fault = await faultFor(req);
        return send(reply, fault ?? head(req));
      },
    });
  });
}
