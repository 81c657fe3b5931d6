// What Bluesky cannot publish, judged from the post's media alone: the publishing side refuses it
// before any call, and a dry run reports it (media.ts preflight). Text length is judged by the
// adapter, with the SDK's grapheme count (the SDK loads on first publish).
import type { PreflightPost } from '../contract.ts';
import { PublishError } from '../errors.ts';
import { mediaKind } from '../media-kind.ts';

const MAX_IMAGES = 4;

/** Up to 4 images in each container, and images only. */
export function checkMedia(input: PreflightPost): void {
  input.containers.forEach((container, i) => {
    if (container.media.length > MAX_IMAGES) throw new PublishError('permanent', `bluesky: container ${i + 1} has ${container.media.length} images; Bluesky allows ${MAX_IMAGES}`);
    for (const m of container.media) {
      if (mediaKind(m.filename) !== 'image') {
        throw new PublishError('permanent', `bluesky: ${m.filename} is not an image; Crier publishes JPEG, PNG, WEBP and GIF images to Bluesky`);
      }
    }
  });
}
