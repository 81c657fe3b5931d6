// Bluesky's judgement: what Bluesky cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), a dry run reports it (media.ts judge) and shows the post as
// Bluesky counts it (measure), and the create refuses its media part (the spec leaves Bluesky's
// 300-character limit to publishing).
import type { JudgedWhen, MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { overLimit, threadOf, type TextCounter } from '../measure.ts';

const MAX_IMAGES = 4;
/** app.bsky.feed.post's text: maxGraphemes 300 and maxLength 3,000 UTF-8 bytes (the lexicon; meta-x-linkedin-bluesky.md §6.3). */
export const MAX_GRAPHEMES = 300;
const MAX_BYTES = 3000;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export const graphemeLength = (text: string): number => [...segmenter.segment(text)].length;

const POST_TEXT: TextCounter = { unit: 'graphemes', limit: MAX_GRAPHEMES, count: graphemeLength };

/** Every container a post of the thread (the root with bluesky.content when set), in graphemes. */
export const measure = (input: PreflightPost): MeasuredPost => ({ parts: threadOf(input, POST_TEXT), leftOut: 0 });

/** What the adapter sends: the root's text is the block's content when set; later containers' are their own. */
export const textsOf = (input: PreflightPost): string[] => measure(input).parts.map((part) => part.text);

/** Up to 4 images in each container, images only; then each text within 300 graphemes and 3,000 bytes. */
export function judge(input: PreflightPost, when: JudgedWhen = 'publish'): void {
  input.containers.forEach((container, i) => {
    if (container.media.length > MAX_IMAGES) throw refused(`container ${i + 1} has ${container.media.length} images; Bluesky allows ${MAX_IMAGES}`);
    for (const m of container.media) {
      if (mediaKind(m.filename) !== 'image') throw refused(`${m.filename} is not an image; Crier publishes JPEG, PNG, WEBP and GIF images to Bluesky`);
    }
  });
  if (when === 'create') return;
  measure(input).parts.forEach((part, i) => {
    if (overLimit(part)) throw refused(`container ${i + 1} has ${part.length} characters (graphemes); Bluesky allows ${part.limit}`);
    const bytes = Buffer.byteLength(part.text);
    if (bytes > MAX_BYTES) throw refused(`container ${i + 1} is ${bytes} bytes in UTF-8; Bluesky allows ${MAX_BYTES}`);
  });
}

const refused = (why: string) => new PublishError('permanent', `bluesky: ${why}`, undefined, 'invalid');
