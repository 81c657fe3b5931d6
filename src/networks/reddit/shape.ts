// Reddit's judgement: what Crier cannot publish to Reddit, judged from the post alone. The publishing
// side refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge;
// the create's own rules, options.ts, name the field first); the dry run shows the submission (measure).
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { characters, commentsOf, measureText, mediaOf, overLimit } from '../measure.ts';
import type { RedditBlock } from './options.ts';

/** A self post's text (youtube-tiktok-gbp-pinterest-vimeo-reddit.md §6.3: about 40,000 characters, a third-party figure). */
const SELF_TEXT = characters(40_000);
const TITLE = characters(300);

/** The submission as adapter.ts sends it: the title, and the self text (none for a link post); later containers as comments. */
export function measure(input: PreflightPost): MeasuredPost {
  const block = (input.block ?? {}) as Partial<RedditBlock>;
  const text = block.url ? '' : (block.content ?? input.containers[0]?.content ?? '');
  const link = block.url ? { note: `a link post to ${block.url}: Reddit shows the link, not the text` } : {};
  const submission = { role: 'post' as const, title: measureText(TITLE, block.title ?? ''), ...measureText(SELF_TEXT, text), media: mediaOf(input.containers[0]), ...link };
  return { parts: [submission, ...commentsOf(input)], leftOut: 0 };
}

/** A block with a subreddit and a title of at most 300 characters, no media, a self text within 40,000. */
export function judge(input: PreflightPost): RedditBlock {
  const block = input.block as RedditBlock | undefined;
  if (!block?.subreddit || !block.title) throw refused('a Reddit post needs reddit.subreddit and reddit.title');
  const { title, ...text } = measure(input).parts[0]!;
  if (title && overLimit(title)) throw refused(`reddit.title is ${title.length} characters; Reddit takes up to ${title.limit}`);
  const withMedia = input.containers.findIndex((c) => c.media.length > 0);
  if (withMedia >= 0) throw refused(`container ${withMedia + 1} has media, but Crier publishes only text and link posts to Reddit`);
  if (overLimit(text)) throw refused(`the post's text is ${text.length} characters; Reddit takes up to ${text.limit}`);
  return block;
}

const refused = (why: string) => new PublishError('permanent', `reddit: ${why}`, undefined, 'invalid');
