// Vimeo's judgement: what Vimeo cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge).
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';

/**
 * What Vimeo cannot publish: the root's one video, later containers as text (options.ts names those
 * fields at creation). Vimeo documents no limit on a video's name or description, so none is judged.
 */
export function checkShape(input: PreflightPost): void {
  const [root, ...later] = input.containers;
  if (root!.media.length !== 1) throw refused(`the first container has ${root!.media.length} media; Vimeo publishes exactly one video`);
  if (mediaKind(root!.media[0]!.filename) === 'image') throw refused(`${root!.media[0]!.filename} is an image; Vimeo publishes exactly one video`);
  later.forEach((container, i) => {
    if (container.media.length) throw refused(`container ${i + 2} has media, but Vimeo publishes later containers as comments, which carry text only`);
    if (!container.content.trim()) throw refused(`container ${i + 2} has no text, and a Vimeo comment needs some`);
  });
}

const refused = (why: string) => new PublishError('permanent', `vimeo: ${why}`, undefined, 'invalid');
