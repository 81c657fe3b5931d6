// What the `youtube` block and the post's text become in videos.insert's video resource, and the
// limits YouTube puts on them (youtube-tiktok-gbp-pinterest-vimeo-reddit.md §1.5): a title of 1-100
// characters without < or >, a description of up to 5,000 bytes without < or >, tags of 500
// characters in all. The request rules (options.ts) and the adapter share these, so a post stored
// before a rule existed is refused the same way at publish time.
import type { VideoMetadata } from './client.ts';
import type { YoutubeBlock } from './options.ts';

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX_BYTES = 5000;
export const TAGS_MAX = 500;
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

/** What is wrong with a title for YouTube, if anything. */
export function titleProblem(title: string): string | undefined {
  if (!title.trim()) return 'must not be empty';
  if ([...title].length > TITLE_MAX) return `is ${[...title].length} characters; YouTube takes up to ${TITLE_MAX}`;
  if (/[<>]/.test(title)) return 'must not contain < or > (YouTube refuses them)';
  return undefined;
}

export function descriptionProblem(description: string): string | undefined {
  const bytes = Buffer.byteLength(description);
  if (bytes > DESCRIPTION_MAX_BYTES) return `is ${bytes} bytes in UTF-8; a YouTube description takes up to ${DESCRIPTION_MAX_BYTES}`;
  if (/[<>]/.test(description)) return 'must not contain < or > (YouTube refuses them in a description)';
  return undefined;
}

/** YouTube's count: the tags' characters, a comma between two, and quotes around a tag with a space. */
export function tagsLength(tags: string[]): number {
  return tags.reduce((sum, t) => sum + [...t].length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
}

function cut(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  // Cut at the last word boundary when one is near the end, so a title does not end mid-word.
  return (space > max * 0.6 ? head.slice(0, space) : head).trim();
}
