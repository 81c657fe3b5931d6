// TikTok's FILE_UPLOAD chunk rules (Media Transfer Guide): chunks of 5 to 64 MB sent in order; a video
// under 5 MB goes whole as one chunk; `total_chunk_count` is video_size / chunk_size rounded down, so
// the last chunk also carries the remainder (it may reach 128 MB); 1 to 1,000 chunks.
import type { Readable } from 'node:stream';

const MB = 1024 * 1024;
export const MIN_CHUNK_BYTES = 5 * MB;
export const MAX_CHUNK_BYTES = 64 * MB;
/** What Crier sends per step: ten of them for a 100 MB video, each a checkpointed step. */
export const DEFAULT_CHUNK_BYTES = 10 * MB;

export interface ChunkPlan {
  videoSize: number;
  chunkSize: number;
  count: number;
}

export function chunkPlan(videoSize: number, preferred = DEFAULT_CHUNK_BYTES): ChunkPlan {
  const size = Math.min(MAX_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, preferred));
  if (videoSize <= size) return { videoSize, chunkSize: videoSize, count: 1 };
  return { videoSize, chunkSize: size, count: Math.floor(videoSize / size) };
}

/** The bytes of chunk `index` (inclusive): the last one runs to the end of the file. */
export function chunkRange(plan: ChunkPlan, index: number): { first: number; last: number } {
  const first = index * plan.chunkSize;
  const last = index === plan.count - 1 ? plan.videoSize - 1 : first + plan.chunkSize - 1;
  return { first, last };
}

/** How many chunks are whole on TikTok's side when it reports `uploadedBytes`. */
export function chunksHeld(plan: ChunkPlan, uploadedBytes: number): number {
  if (uploadedBytes >= plan.videoSize) return plan.count;
  return Math.min(plan.count - 1, Math.floor(uploadedBytes / plan.chunkSize));
}

/**
 * The duration of an MP4 or MOV (ISO base media) in seconds, from its `moov/mvhd` box, reading only
 * box headers and the movie header; undefined for other formats (WebM) or when it cannot be found.
 */
export async function isoDurationSeconds(size: number, read: (start: number, end: number) => Readable): Promise<number | undefined> {
  const bytes = async (start: number, length: number) => collect(read(start, Math.min(size, start + length) - 1));
  let offset = 0;
  for (let boxes = 0; offset + 8 <= size && boxes < 64; boxes++) {
    const header = await bytes(offset, 16);
    let boxSize = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (boxSize === 1 && header.length >= 16) {
      boxSize = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (boxSize === 0) boxSize = size - offset;
    if (boxSize < headerSize) return undefined;
    if (type === 'moov') return mvhdDuration(await bytes(offset + headerSize, Math.min(boxSize - headerSize, 4096)));
    offset += boxSize;
  }
  return undefined;
}

/** mvhd is the first child of moov in every muxer we know; its version says the field widths. */
function mvhdDuration(moov: Buffer): number | undefined {
  const at = moov.indexOf('mvhd', 0, 'latin1');
  if (at < 4 || at + 36 > moov.length) return undefined;
  const body = at + 4;
  const version = moov[body];
  const timescale = version === 1 ? moov.readUInt32BE(body + 20) : moov.readUInt32BE(body + 12);
  const duration = version === 1 ? Number(moov.readBigUInt64BE(body + 24)) : moov.readUInt32BE(body + 16);
  return timescale > 0 ? duration / timescale : undefined;
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}
