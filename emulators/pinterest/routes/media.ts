// Video media (API v5): media/create (POST /v5/media registers an upload and hands out an S3 POST
// form), media/get (GET /v5/media/{media_id}: one poll of its processing), and the upload URL itself
// (an S3-style multipart POST answering 204, or S3's XML error).
import type { FastifyRequest } from 'fastify';
import { jsonBody, multipartBody, type Reply } from '../../shared/http.ts';
import { invalid, mediaNotFound, s3Error } from '../errors.ts';
import { fileOf, type PinterestState } from '../state.ts';
import { bodyProblems } from '../validate.ts';
import { operation, writeRefusal, type ApiContext, type Route } from './common.ts';

export const UPLOAD_PATH = '/media-upload/';

/** An upload form as large as a test's video. */
const UPLOAD_LIMIT = 512 * 1024 * 1024;

export function registerMediaRoutes(route: Route, ctx: ApiContext): void {
  const { state } = ctx;
  operation(route, ctx, { method: 'POST', url: '/v5/media', template: '/media' }, (u, req) => {
    const body = jsonBody(req.body);
    const [problem] = bodyProblems('POST', '/media', body);
    if (problem) return invalid(`Invalid parameters: ${problem}`);
    const refused = writeRefusal(ctx, u);
    if (refused) return refused;
    const media = state.registerMedia(u.id);
    return { status: 201, body: { media_id: media.id, media_type: 'video', upload_url: `${ctx.origin()}${UPLOAD_PATH}`, upload_parameters: media.uploadParameters } };
  });
  operation(route, ctx, { method: 'GET', url: '/v5/media/:media_id', template: '/media/{media_id}' }, (u, req) => {
    const media = state.media.get((req.params as { media_id: string }).media_id);
    if (!media || media.ownerId !== u.id) return mediaNotFound();
    return { status: 200, body: { media_id: media.id, media_type: 'video', status: state.poll(media) } };
  });
  route('POST', UPLOAD_PATH, (req) => upload(state, req), UPLOAD_LIMIT);
}

/** The S3 POST: every field of the media's upload_parameters back unchanged, then `file`. */
async function upload(state: PinterestState, req: FastifyRequest): Promise<Reply> {
  const reply = await uploadReply(state, req);
  state.calls.push({ method: 'POST', path: UPLOAD_PATH, status: reply.status });
  return reply;
}

async function uploadReply(state: PinterestState, req: FastifyRequest): Promise<Reply> {
  const form = await multipartBody(req.body, req.headers['content-type'] ?? '');
  if (!form) return s3Error(400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.');
  const key = form.get('key');
  const media = [...state.media.values()].find((m) => m.uploadParameters.key === key);
  if (!media) return s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["eq", "$key", ...]');
  for (const [name, value] of Object.entries(media.uploadParameters)) {
    if (form.get(name) !== value) return s3Error(403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$${name}", ...]`);
  }
  if (state.uploadsExpired) return s3Error(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  const file = form.get('file');
  if (!(file instanceof Blob)) return s3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  const bytes = Buffer.from(await file.arrayBuffer());
  state.uploaded(media, fileOf(bytes, file.type || 'application/octet-stream', 'upload'));
  return { status: 204 };
}
