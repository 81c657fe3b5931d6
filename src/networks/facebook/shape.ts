// Facebook's judgement: what a Page cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge); the
// dry run shows the post as the Page publishes it (measure).
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { isVideo } from '../media-kind.ts';
import { characters, commentsOf, measureText, mediaOf, overLimit, rootTextOf } from '../measure.ts';

/** A post's text: 63,206 characters (the figure Facebook gives; meta-x-linkedin-bluesky.md §4.3: "about 63k"). */
const MESSAGE = characters(63_206);

/** The message (facebook.content, else the root's text) with the root's media; later containers as the Page's comments. */
export const measure = (input: PreflightPost): MeasuredPost => ({
  parts: [{ role: 'post', ...measureText(MESSAGE, rootTextOf(input)), media: mediaOf(input.containers[0]) }, ...commentsOf(input)],
  leftOut: 0,
});

/**
 * What a Page post can be: text, photos, one video (a feed video, a Reel or a Story), or one photo
 * Story; later containers are comments, which Crier sends as text; a post's text within MESSAGE.
 * Refused before any call.
 */
export function checkShape(input: PreflightPost): void {
  const media = input.containers[0]!.media;
  input.containers.slice(1).forEach((container, i) => {
    if (container.media.length) throw refused(`container ${i + 2} has media, but Facebook publishes later containers as comments, which Crier sends as text`);
  });
  if (media.length > 1 && media.some(isVideo)) throw refused('a Facebook post has photos, or one video; this one mixes them');
  const message = measure(input).parts[0]!;
  if (!message.text && !media.length) throw refused('a Facebook post needs text, photos or a video');
  if (overLimit(message)) throw refused(`the post's text is ${message.length} characters; Facebook takes up to ${message.limit}`);
}

const refused = (why: string) => new PublishError('permanent', `facebook: ${why}`, undefined, 'invalid');
