// A multipart/form-data body streamed from its parts, its exact length known before the first byte:
// fields, then files read from their media source as they are sent (a video is never held whole),
// for the networks whose uploads take a form and refuse a chunked body (S3 behind Pinterest's upload
// URL) or are simply sent one (Telegram's Bot API, Discord's webhooks).
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MediaSource } from './contract.ts';

export type FormPart =
  /** A field; `contentType` only where the network asks for one (Discord's payload_json). */
  | { name: string; value: string; contentType?: string }
  /** A file, its bytes read from `source` (the name's quotes and line breaks made safe). */
  | { name: string; filename: string; source: MediaSource };

export interface StreamedForm {
  /** The request's Content-Type, with its boundary. */
  contentType: string;
  body: Readable;
  /** The body's exact size in bytes (Content-Length). */
  length: number;
}

export function streamedForm(parts: readonly FormPart[]): StreamedForm {
  const boundary = `crier-${randomBytes(12).toString('hex')}`;
  const head = (disposition: string, type: string | undefined) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`);
  const pieces: (Buffer | MediaSource)[] = [];
  for (const part of parts) {
    if ('source' in part) {
      const filename = part.filename.replace(/["\r\n\\]/g, '_');
      pieces.push(head(`name="${part.name}"; filename="${filename}"`, part.source.contentType || 'application/octet-stream'), part.source);
    } else {
      pieces.push(head(`name="${part.name}"`, part.contentType), Buffer.from(part.value));
    }
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const length = pieces.reduce((sum, piece) => sum + (Buffer.isBuffer(piece) ? piece.length : piece.size), 0);
  async function* chunks() {
    for (const piece of pieces) {
      if (Buffer.isBuffer(piece)) yield piece;
      else yield* piece.read();
    }
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.from(chunks(), { objectMode: false }), length };
}
