// Media: /v1/media* (API key) to start, confirm, list and delete uploads; and, outside /v1 with no API
// key, the two public routes a signed URL or an unguessable token authorizes: the upload PUT and the
// public file a network fetches.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Type } from '../../validation/json-schema.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mediaContext, type MediaContext } from '../../media/context.ts';
import { deleteMedia, findServedFile, getMedia, listMedia, type ServedFile } from '../../media/library.ts';
import { parseRange } from '../../media/range.ts';
import { confirmUpload, importUpload, receiveUpload, startUpload } from '../../media/uploads.ts';
import { createGuardedClient } from '../../security/ssrf.ts';
import { parseNumericId } from '../../core/ids.ts';
import { PaginationQuery, type Page } from '../../validation/pagination.ts';
import type { AppContext } from '../context.ts';
import { errorBody } from '../errors.ts';
import { IdParams, requireId } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

const MediaSchema = Type.Object({
  id: Type.Integer(),
  url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description: 'Public HTTPS URL once confirmed; null before' }),
  filename: Type.String(),
  content_type: Type.Union([Type.String(), Type.Null()], { description: 'Confirmed: the type found in the bytes' }),
  size: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String({ enum: ['pending', 'ready'] }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time', description: 'Pending: end of the upload window. Ready: when the media is deleted (retention)' }),
});

/** Media ids are numbers (the spec's Media.id). */
const mediaId = (raw: string) => requireId(raw, parseNumericId, 'Media not found');

export function mediaRoutes(app: FastifyInstance, ctx: AppContext): void {
  const media = mediaContext(ctx.config, ctx.db, ctx.box);

  app.post<{ Body: { filename: string; content_type?: string } }>('/v1/media/upload', {
    schema: {
      summary: 'Start an upload',
      description: 'Returns a signed URL to PUT the file to (it expires after `expires_in` seconds), then confirm with POST /v1/media/:id/confirm.',
      tags: ['media'],
      body: Type.Object({ filename: Type.String({ minLength: 1, maxLength: 255 }), content_type: Type.Optional(Type.String({ maxLength: 255 })) }),
      response: {
        200: Type.Object({ success: Type.Boolean(), data: Type.Object({ id: Type.Integer(), upload_url: Type.String(), expires_in: Type.Integer() }) }),
        400: ErrorSchema,
      },
    },
    handler: async (request) => ({ success: true, data: await startUpload(media, request.owner.orgId, request.body) }),
  });

  // The file at a URL, downloaded by Crier through the SSRF guard (the guard's own client: never loopback unless tests allow it).
  const importClient = createGuardedClient({
    allowLoopback: ctx.config.allowLoopbackFetch, maxBytes: ctx.config.media.maxUploadBytes, timeoutMs: 10 * 60_000,
    ca: ctx.config.extraCaFile ? readFileSync(ctx.config.extraCaFile) : undefined,
  });
  app.addHook('onClose', () => importClient.close());
  app.post<{ Body: { url: string; filename?: string; content_type?: string } }>('/v1/media/import', {
    schema: {
      summary: 'Import a file from a URL',
      description: "Crier downloads the file at `url` (public https addresses only, through its SSRF guard, up to the upload size limit) and keeps it as confirmed media, judged as confirm judges an upload: the answer is the ready media with its `url`. `filename` defaults to the URL's last path segment and must end in a type Crier takes. A URL that cannot be fetched, or a file that is not what its name says: 400 naming the field.",
      tags: ['media'],
      body: Type.Object({
        url: Type.String({ minLength: 1, maxLength: 2048 }),
        filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        content_type: Type.Optional(Type.String({ maxLength: 255 })),
      }),
      response: { 201: Type.Object({ success: Type.Boolean(), data: MediaSchema }), 400: ErrorSchema, 413: ErrorSchema },
    },
    handler: async (request, reply) => reply.code(201).send({ success: true, data: await importUpload(media, importClient, ctx.config.allowLoopbackFetch, request.owner.orgId, request.body) }),
  });

  app.post<{ Params: { id: string }; Body: { size?: number } }>('/v1/media/:id/confirm', {
    schema: {
      summary: 'Confirm an upload',
      description: 'Checks that the file was uploaded, has `size` bytes when given, and really is what its filename and content type say (JPEG, PNG, GIF, WEBP, MP4, MOV or WEBM, judged from its bytes). Confirming again answers the same.',
      tags: ['media'],
      params: IdParams,
      body: Type.Object({ size: Type.Optional(Type.Integer({ minimum: 0 })) }),
      response: { 200: Type.Object({ success: Type.Boolean(), data: MediaSchema }), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    // Every field is optional, so a bodyless POST is a valid confirm, not a validation error.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => ({ success: true, data: await confirmUpload(media, request.owner.orgId, mediaId(request.params.id), request.body.size) }),
  });

  app.get<{ Querystring: Page }>('/v1/media', {
    schema: {
      summary: 'List media',
      tags: ['media'],
      querystring: Type.Object(PaginationQuery),
      response: {
        200: Type.Object({
          success: Type.Boolean(), data: Type.Array(MediaSchema), count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(),
          pagination: Type.Object({ count: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }, { description: 'The same three figures, where hosted clients read them' }),
        }),
        400: ErrorSchema,
      },
    },
    handler: async (request) => {
      const page = await listMedia(media, request.owner.orgId, request.query);
      return { success: true, ...page, pagination: { count: page.count, limit: page.limit, offset: page.offset } };
    },
  });

  app.get<{ Params: { id: string } }>('/v1/media/:id', {
    schema: { summary: 'Get a media', tags: ['media'], params: IdParams, response: { 200: Type.Object({ success: Type.Boolean(), data: MediaSchema }), 404: ErrorSchema } },
    handler: async (request) => ({ success: true, data: await getMedia(media, request.owner.orgId, mediaId(request.params.id)) }),
  });

  app.delete<{ Params: { id: string } }>('/v1/media/:id', {
    schema: {
      summary: 'Delete a media',
      description: 'Deletes the file and the renditions made from it; its public URL stops answering. Posts not yet published that use the URL will fail on that media.',
      tags: ['media'],
      params: IdParams,
      response: { 200: Type.Object({ success: Type.Boolean() }), 404: ErrorSchema },
    },
    handler: async (request) => {
      await deleteMedia(media, request.owner.orgId, mediaId(request.params.id));
      return { success: true };
    },
  });
}

/** Outside /v1: no API key. Register on the root instance. */
export async function publicMediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const media = mediaContext(ctx.config, ctx.db, ctx.box);
  await app.register(async (scope) => uploadRoute(scope, media));
  app.get<{ Params: { token: string; filename: string } }>('/media/:token/:filename', {
    schema: {
      summary: 'A confirmed media file or rendition (public)',
      description: 'Byte ranges, ETag and caching headers; what networks that fetch media by URL read.',
      tags: ['media'],
      security: [],
      params: Type.Object({ token: Type.String(), filename: Type.String() }),
    },
    handler: async (request, reply) => {
      const file = await findServedFile(media, request.params.token, request.params.filename);
      if (!file) return reply.status(404).send(errorBody('No such media', 'not_found'));
      return serveFile(media, file, request, reply);
    },
  });
}

/**
 * The upload PUT streams its body to storage: this scope drops every body parser (JSON, text) and
 * leaves the raw request stream unread for the handler, whatever Content-Type the client sends.
 */
function uploadRoute(scope: FastifyInstance, media: MediaContext): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // A refused upload has an unread body behind it: close the connection rather than read it all.
  scope.addHook('onSend', async (_request, reply) => {
    if (reply.statusCode >= 400) reply.header('connection', 'close');
  });
  scope.put<{ Params: { id: string }; Querystring: { expires?: string; signature?: string } }>('/media-uploads/:id', {
    schema: {
      summary: 'Upload the bytes of a media (signed URL from POST /v1/media/upload)',
      tags: ['media'],
      security: [],
      params: IdParams,
      querystring: Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) }),
    },
    handler: async (request) => {
      const length = request.headers['content-length'];
      const declared = length === undefined ? undefined : Number(length);
      return { success: true, data: await receiveUpload(media, mediaId(request.params.id), request.query, request.raw, declared) };
    },
  });
}

async function serveFile(media: MediaContext, file: ServedFile, request: FastifyRequest, reply: FastifyReply) {
  const etag = `"${file.sha256.toString('base64url')}"`;
  reply.headers({
    'content-type': file.contentType,
    'accept-ranges': 'bytes',
    etag,
    'last-modified': file.modifiedAt.toUTCString(),
    // The bytes under a token never change (a new upload is a new token), so caches may keep them.
    'cache-control': 'public, max-age=86400, immutable',
    'x-content-type-options': 'nosniff',
    'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'access-control-allow-origin': '*',
  });
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? { kind: 'full' as const } : parseRange(request.headers.range, file.size);
  if (range.kind === 'unsatisfiable') {
    return reply.status(416).type('application/json').header('content-range', `bytes */${file.size}`).send(errorBody('Range not satisfiable', 'range_not_satisfiable'));
  }
  // HEAD: an empty stream, because Fastify's HEAD handling keeps our Content-Length only for streams.
  const body = (r?: { start: number; end: number }) => (request.method === 'HEAD' ? Readable.from([]) : media.storage.read(file.storageKey, r));
  if (range.kind === 'partial') {
    reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`).header('content-length', range.end - range.start + 1);
    return reply.send(body(range));
  }
  return reply.status(200).header('content-length', file.size).send(body());
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
