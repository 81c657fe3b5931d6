// videos.insert as one multipart upload (`uploadType=multipart`, the discovery document's `simple`
// protocol with `multipart: true`): a `multipart/related` body of the JSON video resource, then the
// video's bytes — what Google's Node client (`@googleapis/youtube`) sends for any upload. The same
// checks as a resumable session's start, then the video is made at once; 200 with the resource.
// Unlike a resumable upload the body is held whole, so it is capped (MULTIPART_LIMIT).
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Reply } from '../../shared/http.ts';
import { youtubeError } from '../errors.ts';
import type { GoogleWorld } from '../state/world.ts';
import { authenticate, chargedUpload, UPLOAD_SCOPES } from './auth.ts';
import { checkedResource, videoResource } from './metadata.ts';
import type { YoutubeState } from './state.ts';

/** The most a multipart upload may carry here (chosen; Google's figure for it is not published). */
export const MULTIPART_LIMIT = 64 * 1024 * 1024;

interface RelatedPart {
  contentType: string;
  body: Buffer;
}

export async function insertMultipart(world: GoogleWorld, state: YoutubeState, req: FastifyRequest, query: Record<string, string | undefined>): Promise<Reply> {
  const body = await readCapped(req.body as Readable, MULTIPART_LIMIT);
  const caller = authenticate(world, req.headers.authorization, UPLOAD_SCOPES);
  if (!caller.ok) return caller.reply;
  if (body === undefined) return youtubeError(413, 'uploadTooLarge', `The emulator takes multipart uploads up to ${MULTIPART_LIMIT} bytes; use a resumable upload.`, 'global');
  const parts = (query.part ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (!parts.includes('snippet') || !parts.includes('status')) return youtubeError(400, 'required', 'Required parameter: part', 'global', 'part');
  const boundary = /boundary="?([^";]+)"?/i.exec(String(req.headers['content-type'] ?? ''))?.[1];
  const related = boundary && /^multipart\/related/i.test(String(req.headers['content-type'])) ? relatedParts(body, boundary) : undefined;
  if (!related || related.length !== 2) return youtubeError(400, 'badContent', 'Invalid multipart request: expected the metadata and the media.', 'global');
  const [metadata, media] = related as [RelatedPart, RelatedPart];
  let resource: unknown;
  try {
    resource = JSON.parse(metadata.body.toString('utf8'));
  } catch {
    return youtubeError(400, 'parseError', 'Parse Error', 'global');
  }
  const checked = checkedResource(resource);
  if (!checked.ok) return checked.reply;
  const contentType = media.contentType.split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';
  if (!contentType.startsWith('video/') && contentType !== 'application/octet-stream') {
    return youtubeError(400, 'mediaBodyRequired', `Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`, 'global');
  }
  if (media.body.length === 0) return youtubeError(400, 'mediaBodyRequired', 'The request does not include the video content.', 'global');
  const cap = state.uploadCap.get(caller.channel.id);
  if (cap !== undefined && (state.uploadsByChannel.get(caller.channel.id) ?? 0) >= cap) {
    return youtubeError(400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.', 'youtube.video');
  }
  const refused = chargedUpload(state, caller.clientId);
  if (refused) return refused;
  const session = state.openSession(caller.clientId, caller.channel.id, checked.resource, media.body.length, contentType);
  session.hash.update(media.body);
  session.received = media.body.length;
  session.chunks.push({ start: 0, end: media.body.length - 1 });
  const video = state.completeSession(session);
  return { status: 200, body: videoResource(video, caller.channel.title, new Set(parts)) };
}

/** The parts of a multipart/related body (RFC 2046 §5.1.1), or undefined when it is not one. */
export function relatedParts(body: Buffer, boundary: string): RelatedPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: RelatedPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    let start = at + delimiter.length;
    const after = body.subarray(start, start + 2).toString('latin1');
    if (after === '--') return parts;
    if (after !== '\r\n') return undefined;
    start += 2;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    // The CRLF before a delimiter belongs to the delimiter.
    const end = body[next - 2] === 13 && body[next - 1] === 10 ? next - 2 : next;
    const part = body.subarray(start, end);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const headers = part.subarray(0, headEnd).toString('latin1');
    parts.push({ contentType: /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? '', body: part.subarray(headEnd + 4) });
    at = next;
  }
}

/** The whole body, or undefined past `cap` bytes (the rest is read and dropped). */
async function readCapped(body: Readable | undefined, cap: number): Promise<Buffer | undefined> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of body ?? []) {
    size += (piece as Buffer).length;
    if (size <= cap) pieces.push(piece as Buffer);
  }
  return size > cap ? undefined : Buffer.concat(pieces);
}
