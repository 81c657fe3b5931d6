// Reddit's judgement: what Crier cannot publish to Reddit, judged from the post alone. The publishing
// side refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge;
// the create's own rules, options.ts, name the field first).
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import type { RedditBlock } from './options.ts';

/** A self post's text (youtube-tiktok-gbp-pinterest-vimeo-reddit.md §6.3: about 40,000 characters, a third-party figure). */
const MAX_SELF_TEXT = 40_000;
const MAX_TITLE = 300;

/** A block with a subreddit and a title of at most 300 characters, no media, a self text within 40,000. */
export function judge(input: PreflightPost): RedditBlock {
  const block = input.block as RedditBlock | undefined;
  if (!block?.subreddit || !block.title) throw refused('a Reddit post needs reddit.subreddit and reddit.title');
  if ([...block.title].length > MAX_TITLE) throw refused(`reddit.title is ${[...block.title].length} characters; Reddit takes up to ${MAX_TITLE}`);
  const withMedia = input.containers.findIndex((c) => c.media.length > 0);
  if (withMedia >= 0) throw refused(`container ${withMedia + 1} has media, but Crier publishes only text and link posts to Reddit`);
  const text = block.url ? '' : (block.content ?? input.containers[0]!.content);
  if ([...text].length > MAX_SELF_TEXT) throw refused(`the post's text is ${[...text].length} characters; Reddit takes up to ${MAX_SELF_TEXT}`);
  return block;
}

const refused = (why: string) => new PublishError('permanent', `reddit: ${why}`, undefined, 'invalid');
