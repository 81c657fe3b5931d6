// Vimeo's judgement: what Vimeo cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge); the
// dry run shows the video's name and description (measure).
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { characters, commentsOf, measureText, mediaOf } from '../measure.ts';
import type { VimeoBlock } from './options.ts';

/** Vimeo documents no limit on a video's name or description, so none is judged. */
const UNLIMITED = characters(null);

/**
 * The video's name, as the adapter gives it and the preview shows it: the block's title, else the
 * file's name without its extension (Vimeo's own uploader names a video after its file; an empty
 * title names nothing either).
 */
export const videoNameOf = (block: VimeoBlock, filename: string): string => block.title || filename.replace(/\.[^.]*$/, '');

/** The root's video with its name and description (vimeo.description, else the content); later containers as comments. */
export function measure(input: PreflightPost): MeasuredPost {
  const block = (input.block ?? {}) as VimeoBlock;
  const root = input.containers[0];
  const description = block.description ?? block.content ?? root?.content ?? '';
  const video = { role: 'post' as const, title: measureText(UNLIMITED, videoNameOf(block, root?.media[0]?.filename ?? '')), ...measureText(UNLIMITED, description), media: mediaOf(root) };
  return { parts: [video, ...commentsOf(input)], leftOut: 0 };
}

/**
 * What Vimeo cannot publish: the root's one video, later containers as text (options.ts names those
 * fields at creation).
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
