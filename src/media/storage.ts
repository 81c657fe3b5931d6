// Where media bytes live. Crier talks to storage only through MediaStorage, so an S3-compatible store
// can implement it later (write = multipart upload, read = ranged GET, localCopy = download to a
// scratch file for ffmpeg); the local-disk implementation below keeps everything under one
// directory, `<CRIER_DATA_DIR>/media`, with writes made atomic by renaming a finished temporary file.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface WrittenObject {
  size: number;
  sha256: Buffer;
}

export interface MediaStorage {
  /**
   * Streams `source` into object `key`. More than `maxBytes` throws TooLargeError and keeps nothing;
   * `source` is then left undestroyed (paused), so the caller can still answer the request.
   */
  write(key: string, source: Readable, maxBytes: number): Promise<WrittenObject>;
  /** Moves a finished local file (from tempFile) into object `key`. */
  importFile(key: string, file: string): Promise<void>;
  stat(key: string): Promise<{ size: number } | undefined>;
  /** The first `bytes` bytes (fewer when the object is shorter). */
  readHead(key: string, bytes: number): Promise<Buffer>;
  /** The object's bytes, or the inclusive range `start`..`end`. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** A local file holding the object, for ffprobe/ffmpeg; call release when done with it. */
  localCopy(key: string): Promise<{ path: string; release(): Promise<void> }>;
  /** A fresh path for scratch work (downloads, encodes), on the same disk as the objects. */
  tempFile(suffix?: string): Promise<string>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

export class TooLargeError extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`the upload exceeds ${limit} bytes`);
    this.limit = limit;
  }
}

const KEY = /^[a-z0-9_-]+(\/[a-z0-9_.-]+)*$/i;

export function createLocalStorage(root: string): MediaStorage {
  const fileOf = (key: string) => {
    // Keys are built by Crier, never taken from a request; this keeps a bug from escaping the root.
    if (!KEY.test(key) || key.split('/').includes('..')) throw new Error(`invalid storage key ${key}`);
    return path.join(root, key);
  };
  const tempFile = async (suffix = '') => {
    const dir = path.join(root, '.tmp');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return path.join(dir, `${randomBytes(12).toString('hex')}${suffix}`);
  };
  return {
    async write(key, source, maxBytes) {
      const temporary = await tempFile();
      try {
        const written = await streamToFile(source, temporary, maxBytes);
        await moveInto(temporary, fileOf(key));
        return written;
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    importFile: (key, file) => moveInto(file, fileOf(key)),
    async stat(key) {
      const info = await stat(fileOf(key)).catch(() => undefined);
      return info?.isFile() ? { size: info.size } : undefined;
    },
    readHead: (key, bytes) => readHead(fileOf(key), bytes),
    read: (key, range) => createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {}),
    localCopy: async (key) => ({ path: fileOf(key), release: async () => {} }),
    tempFile,
    delete: (key) => rm(fileOf(key), { force: true }),
  };
}

/**
 * Copies with backpressure, counting and hashing as it goes. The iterator does not destroy the
 * source when we stop early: an oversized upload must still get its 413 on the same connection.
 */
async function streamToFile(source: Readable, file: string, maxBytes: number): Promise<WrittenObject> {
  const hash = createHash('sha256');
  const handle = await open(file, 'wx', 0o600);
  let size = 0;
  try {
    for await (const chunk of source.iterator({ destroyOnReturn: false })) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > maxBytes) throw new TooLargeError(maxBytes);
      hash.update(bytes);
      await handle.write(bytes);
    }
  } finally {
    await handle.close();
  }
  return { size, sha256: hash.digest() };
}

async function moveInto(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  await rename(from, to);
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
