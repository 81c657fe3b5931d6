// What Vimeo cannot publish, judged from the post alone: the publishing side refuses it before any
// call, and a dry run reports it (media.ts preflight).
import type { PreflightPost } from '../contract.ts';
import { PublishError } from '../errors.ts';
import { mediaKind } from '../media-kind.ts';

/** What Vimeo cannot publish: the root's one video (judged here, so a cross-post goes on elsewhere), later containers as text (options.ts refuses those at creation too). */
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
