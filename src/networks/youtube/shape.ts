// YouTube's judgement: what YouTube cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge); the
// dry run shows the video's title and description as the video resource carries them (measure).
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { characters, commentsOf, measureText, mediaOf, rootTextOf, type TextCounter } from '../measure.ts';
import { DESCRIPTION_MAX_BYTES, descriptionProblem, TITLE_MAX, titleProblem } from './metadata.ts';
import type { YoutubeBlock } from './options.ts';
import { descriptionFor, titleFor } from './video-resource.ts';

/** The counts metadata.ts's problems judge: a title in characters, a description in UTF-8 bytes. */
const TITLE = characters(TITLE_MAX);
const DESCRIPTION: TextCounter = { unit: 'utf8_bytes', limit: DESCRIPTION_MAX_BYTES, count: (text) => Buffer.byteLength(text) };

/** The video (the root's one file) with its title and description as video-resource.ts builds them; later containers as comments. */
export function measure(input: PreflightPost): MeasuredPost {
  const block = (input.block ?? {}) as YoutubeBlock;
  const description = descriptionFor(block, rootTextOf(input));
  const title = titleFor(block, description, input.containers[0]?.media[0]?.filename ?? '');
  const root = { role: 'post' as const, title: measureText(TITLE, title), ...measureText(DESCRIPTION, description), media: mediaOf(input.containers[0]) };
  return { parts: [root, ...commentsOf(input)], leftOut: 0 };
}

/**
 * What YouTube cannot publish, refused before any call: one video in the root, text-only comments
 * after it, a title and description YouTube takes (the request's rules name those fields at creation).
 */
export function checked(input: PreflightPost): YoutubeBlock {
  const block = (input.block ?? {}) as YoutubeBlock;
  const root = input.containers[0]!;
  if (root.media.length !== 1) throw refused(`a YouTube post is one video in the first container, this one has ${root.media.length} media`);
  if (mediaKind(root.media[0]!.filename) !== 'video') throw refused(`a YouTube post is one video in the first container, and "${root.media[0]!.filename}" is not an mp4, mov, m4v or webm video`);
  const laterWithMedia = input.containers.findIndex((c, i) => i > 0 && c.media.length > 0);
  if (laterWithMedia > 0) throw refused(`container ${laterWithMedia + 1} has media, but later containers become comments on the video, which carry text only`);
  const description = descriptionProblem(rootTextOf(input));
  if (description) throw refused(`the description ${description}`);
  const title = block.title === undefined ? undefined : titleProblem(block.title);
  if (title) throw refused(`youtube.title ${title}`);
  return block;
}

const refused = (why: string) => new PublishError('permanent', `youtube: ${why}`, undefined, 'invalid');
