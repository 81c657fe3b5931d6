// Bluesky's judgement: what Bluesky cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), a dry run reports it (media.ts judge), and the create
// refuses its media part (the spec leaves Bluesky's 300-character limit to publishing).
import type { JudgedWhen } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';

const MAX_IMAGES = 4;
/** app.bsky.feed.post's text: maxGraphemes 300 and maxLength 3,000 UTF-8 bytes (the lexicon; meta-x-linkedin-bluesky.md §6.3). */
export const MAX_GRAPHEMES = 300;
const MAX_BYTES = 3000;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export const graphemeLength = (text: string): number => [...segmenter.segment(text)].length;

/** The root's text is the block's content when set; later containers' are their own. */
export const textsOf = (input: PreflightPost): string[] =>
  input.containers.map((c, i) => (i === 0 && typeof input.block?.content === 'string' ? input.block.content : c.content));

/** Up to 4 images in each container, images only; then each text within 300 graphemes and 3,000 bytes. */
export function judge(input: PreflightPost, when: JudgedWhen = 'publish'): void {
  input.containers.forEach((container, i) => {
    if (container.media.length > MAX_IMAGES) throw refused(`container ${i + 1} has ${container.media.length} images; Bluesky allows ${MAX_IMAGES}`);
    for (const m of container.media) {
      if (mediaKind(m.filename) !== 'image') throw refused(`${m.filename} is not an image; Crier publishes JPEG, PNG, WEBP and GIF images to Bluesky`);
    }
  });
  if (when === 'create') return;
  textsOf(input).forEach((text, i) => {
    const length = graphemeLength(text);
    if (length > MAX_GRAPHEMES) throw refused(`container ${i + 1} has ${length} characters (graphemes); Bluesky allows ${MAX_GRAPHEMES}`);
    const bytes = Buffer.byteLength(text);
    if (bytes > MAX_BYTES) throw refused(`container ${i + 1} is ${bytes} bytes in UTF-8; Bluesky allows ${MAX_BYTES}`);
  });
}

const refused = (why: string) => new PublishError('permanent', `bluesky: ${why}`, undefined, 'invalid');
