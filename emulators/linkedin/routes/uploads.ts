// The upload URLs initializeUpload hands out (www.linkedin.com/dms-uploads/… on LinkedIn, the
// emulator's own origin here). Bodies arrive as streams and are hashed on the way in: images and
// documents are never held in memory, a video part (≤ 4 MiB) only until it is hashed in order.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { send, type Reply } from '../../shared/http.ts';
import { sniff } from '../../shared/sniff.ts';
import { accessDenied, illegalArgument, notFound } from '../errors.ts';
import { ByteDigest, receivePart, type Asset } from '../publishing.ts';
import { mayActAs, type LinkedInWorld } from '../state.ts';
import { VIDEO_PART_BYTES } from './assets.ts';
import { authenticate, isReply, urnParam } from './context.ts';

export interface UploadInput {
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** The request body as a stream; undefined when there is none. */
  body: Readable | undefined;
}

/** Documents: up to 100 MB (learn.microsoft.com …/documents-api). */
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** No byte cap is documented for images (a pixel cap is); this one only guards the emulator. */
const MAX_IMAGE_BYTES = 100 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif'];

async function drain(body: Readable | undefined, onChunk: (chunk: Buffer) => void): Promise<void> {
  if (!body) return;
  for await (const chunk of body) onChunk(chunk as Buffer);
}

/** Reads the body away before a refusal, so the connection stays usable. */
async function refuse(input: UploadInput, reply: Reply): Promise<Reply> {
  await drain(input.body, () => {});
  return reply;
}

/** PDF, or the Office formats the Documents API also takes (OLE2 .doc/.ppt, zip-based .docx/.pptx). */
function documentType(head: Buffer): string | null {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.readUInt32BE(0) === 0xd0cf11e0) return 'application/x-ole-storage';
  if (head.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004') return 'application/zip';
  return null;
}

function uploadHandler(world: LinkedInWorld) {
  const { publishing } = world;

  /** Images and documents: one PUT with the member's bearer token; processing starts at once. */
  const single = async (asset: Asset, input: UploadInput): Promise<Reply> => {
    const caller = authenticate(world, input.headers);
    if (isReply(caller)) return refuse(input, caller);
    if (!mayActAs(world, caller.sub, asset.owner)) return refuse(input, accessDenied('dms-uploads'));
    const digest = new ByteDigest();
    await drain(input.body, (chunk) => digest.update(chunk));
    const max = asset.kind === 'document' ? MAX_DOCUMENT_BYTES : MAX_IMAGE_BYTES;
    if (digest.size > max) return { status: 413, body: { status: 413, message: `File of ${digest.size} bytes exceeds the maximum of ${max} bytes` } };
    const sha256 = digest.hex();
    receivePart(asset, { index: 0, firstByte: 0, lastByte: digest.size - 1, size: digest.size, sha256, etag: sha256 }, null);
    asset.sha256 = sha256;
    asset.mime = asset.kind === 'image' ? (sniff(digest.head)?.mime ?? null) : documentType(digest.head);
    const accepted = asset.kind === 'image' ? IMAGE_TYPES.includes(asset.mime ?? '') : asset.mime !== null;
    asset.outcome = accepted ? { status: 'AVAILABLE' } : { status: 'PROCESSING_FAILED', reason: `Unsupported ${asset.kind} format` };
    asset.processingSince = world.clock.now();
    asset.processingMs = asset.kind === 'image' ? world.processing.imageMs : world.processing.documentMs;
    return { status: 201 };
  };

  /** A video part: a signed URL (no token), exactly its byte range's length, answered with an ETag. */
  const videoPart = async (asset: Asset, index: number, input: UploadInput): Promise<Reply> => {
    const size = asset.declaredSize ?? 0;
    const parts = Math.ceil(size / VIDEO_PART_BYTES);
    if (!Number.isInteger(index) || index < 0 || index >= parts) return refuse(input, notFound(`No upload part ${index} for ${asset.urn}`));
    const firstByte = index * VIDEO_PART_BYTES;
    const lastByte = Math.min(firstByte + VIDEO_PART_BYTES, size) - 1;
    const digest = new ByteDigest();
    const chunks: Buffer[] = [];
    await drain(input.body, (chunk) => {
      digest.update(chunk);
      if (digest.size <= VIDEO_PART_BYTES) chunks.push(chunk);
    });
    const expected = lastByte - firstByte + 1;
    if (digest.size !== expected) return illegalArgument(`Part ${index} must be ${expected} bytes (bytes ${firstByte}-${lastByte}), got ${digest.size}`);
    if (asset.finalized) return illegalArgument(`${asset.urn} is already finalized`);
    const sha256 = digest.hex();
    if (index === 0) asset.mime = sniff(digest.head)?.mime ?? null;
    const etag = `/ambry-video/${sha256.slice(0, 32)}`;
    receivePart(asset, { index, firstByte, lastByte, size: digest.size, sha256, etag }, Buffer.concat(chunks));
    return { status: 200, headers: { etag } };
  };

  /** The optional thumbnail and captions files of a video. */
  const videoExtra = async (asset: Asset, which: 'thumbnail' | 'captions', input: UploadInput): Promise<Reply> => {
    const digest = new ByteDigest();
    await drain(input.body, (chunk) => digest.update(chunk));
    asset.extras[which] = { size: digest.size, sha256: digest.hex() };
    return { status: 201 };
  };

  return async (input: UploadInput): Promise<Reply> => {
    const asset = publishing.assets.get(urnParam(input.params.urn));
    if (!asset || asset.kind !== input.params.kind) return refuse(input, notFound('No such upload'));
    const part = input.params.part ?? '';
    if (asset.kind !== 'video') return single(asset, input);
    if (part === 'thumbnail' || part === 'captions') return videoExtra(asset, part, input);
    return videoPart(asset, /^\d+$/.test(part) ? Number(part) : -1, input);
  };
}

/**
 * Serves PUT /dms-uploads/{kind}/{urn}/{part} in a scope of its own, where bodies of any (or no)
 * content type arrive as streams instead of the buffers the rest of the emulator parses.
 */
export async function registerUploads(app: FastifyInstance, world: LinkedInWorld, faultFor: (req: FastifyRequest) => Promise<Reply | undefined>): Promise<void> {
  const upload = uploadHandler(world);
  await app.register(async (scope: FastifyInstance) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.put('/dms-uploads/:kind/:urn/:part', async (req, reply) => {
      const fault = await faultFor(req);
      if (fault) return send(reply, fault);
      // The catch-all parser runs with or without a Content-Type; no body at all leaves it undefined.
      const body = req.body as Readable | undefined;
      return send(reply, await upload({ params: req.params as Record<string, string>, headers: req.headers as Record<string, string | undefined>, body }));
    });
  });
}
