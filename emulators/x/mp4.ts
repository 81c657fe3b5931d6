// A video's duration as X's processing reads it from the file: the movie header (`mvhd`) of an MP4 or
// QuickTime file gives a timescale (units per second) and a duration in those units.

/** Milliseconds of the movie, or undefined when the bytes hold no movie header. */
export function mp4DurationMs(bytes: Buffer): number | undefined {
  const moov = findBox(bytes, 0, bytes.length, 'moov');
  const mvhd = moov && findBox(bytes, moov.start, moov.end, 'mvhd');
  if (!mvhd) return undefined;
  const version = bytes[mvhd.start];
  // version 0: 32-bit times and duration; version 1: 64-bit, after 4 bytes of version and flags.
  const read = version === 1
    ? { timescale: mvhd.start + 20, duration: () => Number(bytes.readBigUInt64BE(mvhd.start + 24)), size: 32 }
    : { timescale: mvhd.start + 12, duration: () => bytes.readUInt32BE(mvhd.start + 16), size: 20 };
  if (mvhd.end - mvhd.start < read.size) return undefined;
  const timescale = bytes.readUInt32BE(read.timescale);
  return timescale > 0 ? Math.round((read.duration() * 1000) / timescale) : undefined;
}

/** The payload (after the 8-byte header) of the first box of this type between start and end. */
function findBox(bytes: Buffer, start: number, end: number, type: string): { start: number; end: number } | undefined {
  let offset = start;
  while (offset + 8 <= end) {
    const size = bytes.readUInt32BE(offset);
    const boxEnd = size === 0 ? end : offset + size;
    if (size !== 0 && size < 8) return undefined;
    if (boxEnd > end) return undefined;
    if (bytes.toString('latin1', offset + 4, offset + 8) === type) return { start: offset + 8, end: boxEnd };
    offset = boxEnd;
  }
  return undefined;
}
