// X's judgement: what X cannot publish, judged from the post alone. The publishing side refuses it
// before any call (adapter.ts prepare), a dry run reports it (media.ts judge) and shows the post as X
// counts it (measure), and the create refuses its media part (the spec leaves X's length to publishing).
import type { JudgedWhen, MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { overLimit, threadOf, type TextCounter } from '../measure.ts';
import { weightedLength, X_MAX_WEIGHTED_LENGTH } from './weighted-length.ts';

const POST_TEXT: TextCounter = { unit: 'weighted', limit: X_MAX_WEIGHTED_LENGTH, count: weightedLength };

/** Every container a post of the thread (the root with x.content when set), counted as X counts. */
export const measure = (input: PreflightPost): MeasuredPost => ({ parts: threadOf(input, POST_TEXT), leftOut: 0 });

/** Up to 4 images or 1 video in each container, then each text within X's 280 weighted characters. */
export function judge(input: PreflightPost, when: JudgedWhen = 'publish'): void {
  input.containers.forEach((container, i) => {
    const videos = container.media.filter((m) => mediaKind(m.filename) === 'video').length;
    if (container.media.length > 4 || (videos > 0 && container.media.length > 1)) {
      throw new PublishError('permanent', `x: container ${i + 1} has ${container.media.length} media; X allows up to 4 images or 1 video per post`, undefined, 'invalid');
    }
  });
  if (when === 'create') return;
  measure(input).parts.forEach((part, i) => {
    if (overLimit(part)) {
      throw new PublishError('permanent', `x: container ${i + 1} is ${part.length} characters as X counts them; X allows ${part.limit} `
        + '(links count 23, most CJK characters and every emoji 2)', undefined, 'invalid');
    }
  });
}
