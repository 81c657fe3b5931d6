// The limits YouTube puts on a video's metadata (youtube-tiktok-gbp-pinterest-vimeo-reddit.md §1.5): a title of 1-100
// characters without < or >, a description of up to 5,000 bytes without < or >, tags of 500
// characters in all. The request rules (options.ts), the judgement (shape.ts) and the video resource
// (video-resource.ts) share these, so a post stored before a rule existed is refused the same way at
// publish time.

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX_BYTES = 5000;
export const TAGS_MAX = 500;
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
