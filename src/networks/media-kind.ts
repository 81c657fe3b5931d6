// What a piece of media is, decided from its filename extension. The spec asks clients for a filename
// "with extension" precisely so this can be known at request time, before anything is downloaded.
import type { MediaInput } from '../core/post.ts';

export type MediaKind = 'image' | 'video' | 'other';

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'mov', 'm4v', 'webm']);

/** `Clip.MP4` -> 'video', `a.jpeg` -> 'image', `doc.pdf` or `noext` -> 'other'. */
export function mediaKind(filename: string): MediaKind {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return 'other';
  const extension = filename.slice(dot + 1).toLowerCase();
  if (IMAGE_EXTENSIONS.has(extension)) return 'image';
  if (VIDEO_EXTENSIONS.has(extension)) return 'video';
  return 'other';
}

export const isImage = (media: MediaInput): boolean => mediaKind(media.filename) === 'image';
export const isVideo = (media: MediaInput): boolean => mediaKind(media.filename) === 'video';
