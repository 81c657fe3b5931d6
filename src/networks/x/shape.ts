// What X cannot publish, judged from the post alone: the publishing side refuses it before any
// call, and a dry run reports it (media.ts preflight).
import type { PreflightPost } from '../contract.ts';
import { PublishError } from '../errors.ts';
import { mediaKind } from '../media-kind.ts';

/** Up to 4 images or 1 video in each container. */
export function checkMediaCounts(input: PreflightPost): void {
  input.containers.forEach((container, i) => {
    const videos = container.media.filter((m) => mediaKind(m.filename) === 'video').length;
    if (container.media.length > 4 || (videos > 0 && container.media.length > 1)) {
      throw new PublishError('permanent', `x: container ${i + 1} has ${container.media.length} media; X allows up to 4 images or 1 video per post`);
    }
  });
}
