// What Instagram receives of a post, counted as Instagram counts it: the caption (none on a Story) with
// the root's media, later containers as comments. The judgement (plan.ts checkShape) refuses a caption
// over CAPTION's limit from this measure, and planRoot sends this caption, so the dry run's preview,
// its refusal and publishing say the same.
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { characters, commentsOf, measureText, mediaOf } from '../measure.ts';
import type { InstagramBlock } from './options.ts';

/** A caption's length (meta-x-linkedin-bluesky.md §3.3: 2,200 characters). */
const CAPTION = characters(2200);

const isStory = (input: PreflightPost): boolean => (input.block as InstagramBlock | undefined)?.publishAsStory === true;

/** The feed post's or Reel's caption: the block's content, else its caption, else the root text; '' for a Story. */
export function captionOf(input: PreflightPost): string {
  const block = (input.block ?? {}) as InstagramBlock;
  return isStory(input) ? '' : block.content ?? block.caption ?? input.containers[0]?.content ?? '';
}

export function measure(input: PreflightPost): MeasuredPost {
  const story = isStory(input) ? { note: 'a Story carries no caption' } : {};
  const root = { role: 'post' as const, ...measureText(CAPTION, captionOf(input)), media: mediaOf(input.containers[0]), ...story };
  return { parts: [root, ...commentsOf(input)], leftOut: 0 };
}
