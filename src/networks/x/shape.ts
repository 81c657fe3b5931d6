// X's judgement: what X cannot publish, judged from the post alone. The publishing side refuses it
// before any call (adapter.ts prepare), a dry run reports it (media.ts judge),
// and the create refuses its media part (the spec leaves X's length to publishing).
import type { JudgedWhen } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { weightedLength, X_MAX_WEIGHTED_LENGTH } from './weighted-length.ts';

/** Up to 4 images or 1 video in each container, then each text within X's 280 weighted characters. */
export function judge(input: PreflightPost, when: JudgedWhen = 'publish'): void {
  input.containers.forEach((container, i) => {
    const videos = container.media.filter((m) => mediaKind(m.filename) === 'video').length;
    if (container.media.length > 4 || (videos > 0 && container.media.length > 1)) {
      throw new PublishError('permanent', `x: container ${i + 1} has ${container.media.length} media; X allows up to 4 images or 1 video per post`, undefined, 'invalid');
    }
  });
  if (when === 'create') return;
  input.containers.forEach((container, i) => {
    const text = i === 0 && typeof input.block?.content === 'string' ? input.block.content : container.content;
    const length = weightedLength(text);
    if (length > X_MAX_WEIGHTED_LENGTH) {
      throw new PublishError('permanent', `x: container ${i + 1} is ${length} characters as X counts them; X allows ${X_MAX_WEIGHTED_LENGTH} `
        + '(links count 23, most CJK characters and every emoji 2)', undefined, 'invalid');
    }
  });
}
