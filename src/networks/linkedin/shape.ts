// LinkedIn's judgement: what LinkedIn cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge).
import type { PreflightPost } from '../contract.ts';
import { PublishError } from '../errors.ts';

const MAX_IMAGES = 20;
/** A post's commentary (meta-x-linkedin-bluesky.md §5.3: 3,000 characters). */
const MAX_COMMENTARY = 3000;

/**
 * What LinkedIn cannot publish, refused before any call: later containers become comments, which
 * carry text only; the root has 1 to 20 images, or one video, or one document, or an article card;
 * the commentary (linkedin.content, else the root's text) is at most 3,000 characters.
 * (Whether a file is an image, a video or a document is known from its bytes, at upload: uploads.ts.)
 */
export function checkShape(input: PreflightPost): void {
  const root = input.containers[0]!.media;
  input.containers.slice(1).forEach((container, i) => {
    if (container.media.length) throw refused(`container ${i + 2} has media, but LinkedIn publishes later containers as comments on the post, which carry text only`);
  });
  if (root.length > MAX_IMAGES) throw refused(`the post has ${root.length} media; LinkedIn takes up to ${MAX_IMAGES} images in one post`);
  if (root.length && (input.block as { article?: unknown } | undefined)?.article) {
    throw refused('the post has both media and linkedin.article; LinkedIn shows either media or an article card');
  }
  const commentary = (input.block as { content?: string } | undefined)?.content ?? input.containers[0]!.content;
  if ([...commentary].length > MAX_COMMENTARY) throw refused(`the post's text is ${[...commentary].length} characters; LinkedIn takes up to ${MAX_COMMENTARY}`);
}


const refused = (why: string) => new PublishError('permanent', `linkedin: ${why}`, undefined, 'invalid');
