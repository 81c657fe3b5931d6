// Facebook's judgement: what a Page cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge).
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { isVideo } from '../media-kind.ts';
import type { FacebookBlock } from './options.ts';

/**
 * What a Page post can be: text, photos, one video (a feed video, a Reel or a Story), or one photo
 * Story; later containers are comments, which Crier sends as text; a post's text is at most 63,206
 * characters (the figure Facebook gives; meta-x-linkedin-bluesky.md §4.3: "about 63k"). Refused before any call.
 */
export function checkShape(input: PreflightPost): void {
  const block = (input.block ?? {}) as FacebookBlock;
  const media = input.containers[0]!.media;
  input.containers.slice(1).forEach((container, i) => {
    if (container.media.length) throw refused(`container ${i + 2} has media, but Facebook publishes later containers as comments, which Crier sends as text`);
  });
  if (media.length > 1 && media.some(isVideo)) throw refused('a Facebook post has photos, or one video; this one mixes them');
  if (!input.containers[0]!.content && !block.content && !media.length) throw refused('a Facebook post needs text, photos or a video');
  const text = block.content ?? input.containers[0]!.content;
  if ([...text].length > MAX_TEXT) throw refused(`the post's text is ${[...text].length} characters; Facebook takes up to ${MAX_TEXT}`);
}

const MAX_TEXT = 63_206;

const refused = (why: string) => new PublishError('permanent', `facebook: ${why}`, undefined, 'invalid');
