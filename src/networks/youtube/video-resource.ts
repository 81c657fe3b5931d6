// What the `youtube` block and the post's text become in videos.insert's video resource: the title,
// the description (#Shorts added for a Short), tags, category and status, within metadata.ts's limits.
import type { VideoMetadata } from './client.ts';
import { DESCRIPTION_MAX_BYTES, TITLE_MAX } from './metadata.ts';
import type { YoutubeBlock } from './options.ts';

/** What YouTube's help suggests a Short's title or description carry; Crier adds it to the description. */
export const SHORTS_TAG = '#Shorts';

/** The title: the block's, else the first line of the description, else the file's name. */
export function titleFor(block: YoutubeBlock, description: string, filename: string): string {
  if (block.title !== undefined) return block.title;
  const firstLine = description.split('\n').map((line) => line.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim()).find(Boolean);
  const fallback = filename.replace(/\.[^.]*$/, '').replace(/[<>]/g, '').trim() || 'Untitled';
  return cut(firstLine ?? fallback, TITLE_MAX);
}

/** The description: the text, with #Shorts at its end for a Short that does not say it already. */
export function descriptionFor(block: YoutubeBlock, text: string): string {
  if (!block.isShort || /#shorts\b/i.test(`${block.title ?? ''} ${text}`)) return text;
  const tagged = text ? `${text}\n\n${SHORTS_TAG}` : SHORTS_TAG;
  return Buffer.byteLength(tagged) <= DESCRIPTION_MAX_BYTES ? tagged : text;
}

export function metadataFor(block: YoutubeBlock, text: string, filename: string): VideoMetadata {
  const description = descriptionFor(block, text);
  return {
    snippet: {
      title: titleFor(block, text, filename),
      description,
      ...(block.tags?.length ? { tags: block.tags } : {}),
      ...(block.categoryId ? { categoryId: block.categoryId } : {}),
    },
    status: {
      privacyStatus: block.privacyStatus ?? 'public',
      ...(block.madeForKids !== undefined ? { selfDeclaredMadeForKids: block.madeForKids } : {}),
      // Left out when unset: YouTube keeps its own default, and it cannot be changed once published.
      ...(block.containsSyntheticMedia !== undefined ? { containsSyntheticMedia: block.containsSyntheticMedia } : {}),
    },
  };
}

function cut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  // Cut at the last word boundary when one is near the end, so a title does not end mid-word.
  return (space > max * 0.6 ? head.slice(0, space) : head).trim();
}
