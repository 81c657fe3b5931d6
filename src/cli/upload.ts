// A local file given to `crier post --media` goes through Crier's media flow before the post is
// created: POST /v1/media/upload, PUT the bytes (streamed from disk, never held in memory) to the
// signed URL it answers, POST /v1/media/:id/confirm. Progress goes to stderr, so stdout stays the
// command's result.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { ClientFailure, failureFor, request, unreachable, usageFailure, type Connection } from './api.ts';

export interface MediaInput {
  url: string;
  filename: string;
}

/** `--media` values: URLs are passed as they are, files are uploaded first. */
export async function resolveMedia(conn: Connection, values: string[]): Promise<MediaInput[]> {
  const media: MediaInput[] = [];
  for (const value of values) media.push(/^https?:\/\//i.test(value) ? fromUrl(value) : await uploadFile(conn, value));
  return media;
}

function fromUrl(value: string): MediaInput {
  const name = path.posix.basename(new URL(value).pathname);
  if (!name) throw usageFailure(`--media ${value}: the URL must end with a file name (e.g. photo.jpg)`);
  return { url: value, filename: name };
}

async function uploadFile(conn: Connection, file: string): Promise<MediaInput> {
  const size = await fileSize(file);
  const filename = path.basename(file);
  const started = await request(conn, '/v1/media/upload', { method: 'POST', body: { filename } });
  const { id, upload_url: uploadUrl } = started.body.data as { id: number; upload_url: string };
  await putBytes(uploadUrl, file, size, filename);
  const confirmed = await request(conn, `/v1/media/${id}/confirm`, { method: 'POST', body: { size } });
  const data = confirmed.body.data as { url: string; filename: string };
  return { url: data.url, filename: data.filename };
}

async function fileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw usageFailure(`--media ${file}: not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof ClientFailure) throw error;
    throw usageFailure(`--media ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

async function putBytes(uploadUrl: string, file: string, size: number, filename: string): Promise<void> {
  const progress = progressReporter(filename, size);
  const body = Readable.toWeb(createReadStream(file).pipe(progress.counter)) as ReadableStream;
  let response: Response;
  try {
    response = await fetch(uploadUrl, { method: 'PUT', body, duplex: 'half', headers: { 'content-length': String(size) } } as RequestInit);
  } catch (error) {
    throw unreachable(new URL(uploadUrl).origin, error);
  } finally {
    progress.done();
  }
  if (!response.ok) throw failureFor(response.status, await response.json().catch(() => null));
}

/** Counts the bytes going out and redraws one line on stderr (a new line per 25% when not a terminal). */
function progressReporter(filename: string, size: number) {
  const tty = process.stderr.isTTY;
  let sent = 0;
  let shown = -1;
  const show = () => {
    const percent = size ? Math.floor((sent / size) * 100) : 100;
    if (tty) process.stderr.write(`\ruploading ${filename}: ${percent}% (${sent} of ${size} bytes)`);
    else if (percent >= shown + 25 || (percent === 100 && shown < 100)) process.stderr.write(`uploading ${filename}: ${percent}% (${sent} of ${size} bytes)\n`);
    else return;
    shown = percent;
  };
  show();
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length;
      show();
      callback(null, chunk);
    },
  });
  return { counter, done: () => { if (tty) process.stderr.write('\n'); } };
}
