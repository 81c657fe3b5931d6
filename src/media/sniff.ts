// What a file really is, from its first bytes, and what a filename or a declared type claims it is.
// Confirm trusts the bytes: a PNG named .jpg, or an HTML page announced as video/mp4, is refused
// before any network is asked to take it.

export type MediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'video/mp4' | 'video/quicktime' | 'video/webm';

export const MEDIA_TYPES: readonly MediaType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'video/quicktime', 'video/webm'];

/** Bytes the sniffer needs to see. */
export const SNIFF_BYTES = 64;

const EXTENSIONS: Record<string, MediaType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
};

/** Human names, for error messages. */
export const TYPE_NAMES: Record<MediaType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/gif': 'GIF',
  'image/webp': 'WEBP',
  'video/mp4': 'MP4',
  'video/quicktime': 'MOV',
  'video/webm': 'WEBM',
};

// ISO BMFF brands that are not video: HEIF/AVIF images and MPEG-4 audio share MP4's `ftyp` box.
const NON_VIDEO_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis', 'M4A ', 'M4B ', 'M4P ']);

/** The type of a file from its first SNIFF_BYTES bytes, or undefined when it is none we take. */
export function sniffType(head: Buffer): MediaType | undefined {
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return isoVideoType(head.toString('latin1', 8, 12));
  // Matroska's EBML header; WebM is the Matroska profile whose DocType is "webm".
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3 && head.includes('webm', 4, 'latin1')) return 'video/webm';
  return undefined;
}

function isoVideoType(brand: string): MediaType | undefined {
  if (NON_VIDEO_BRANDS.has(brand)) return undefined;
  return brand === 'qt  ' ? 'video/quicktime' : 'video/mp4';
}

/** `Clip.MOV` -> 'video/quicktime'; undefined for an extension we do not take (or none). */
export function typeFromFilename(filename: string): MediaType | undefined {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? undefined : EXTENSIONS[filename.slice(dot + 1).toLowerCase()];
}

/** `image/JPEG; charset=x` -> 'image/jpeg' when it is a type we take, plus the common `image/jpg` alias. */
export function normalizeType(declared: string): MediaType | undefined {
  const bare = declared.split(';')[0]!.trim().toLowerCase();
  const type = bare === 'image/jpg' ? 'image/jpeg' : bare;
  return (MEDIA_TYPES as readonly string[]).includes(type) ? (type as MediaType) : undefined;
}

/**
 * Whether a claim (extension or declared type) agrees with what the bytes are. MP4 and MOV are the
 * same ISO container family: players and networks take either under either name, and phones name
 * them loosely, so they are not held against each other.
 */
export function sameFamily(claimed: MediaType, actual: MediaType): boolean {
  if (claimed === actual) return true;
  const iso = new Set<MediaType>(['video/mp4', 'video/quicktime']);
  return iso.has(claimed) && iso.has(actual);
}

export const isVideoType = (type: string): boolean => type.startsWith('video/');

/** "JPEG, PNG, GIF, WEBP, MP4, MOV or WEBM": what we accept, for error messages. */
export function acceptedNames(): string {
  const names = [...new Set(Object.values(TYPE_NAMES))];
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
