// Pinterest's judgement: what Pinterest cannot publish, judged from the post alone. The publishing
// side refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge;
// the create's own rules, options.ts, name the field first); the dry run shows the pin (measure).
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { characters, measureText, mediaOf, overLimit } from '../measure.ts';
import { descriptionOf, MAX_DESCRIPTION, MAX_IMAGES, MAX_TITLE, titleOf, type PinterestBlock } from './options.ts';

const TITLE = characters(MAX_TITLE);
const DESCRIPTION = characters(MAX_DESCRIPTION);

/** The pin as adapter.ts sends it: its title (the block's, else the description's start), description and media. No comments: later containers are left out. */
export function measure(input: PreflightPost): MeasuredPost {
  const block = input.block as PinterestBlock | undefined;
  const description = descriptionOf(block, input.containers[0]?.content ?? '');
  const pin = { role: 'post' as const, title: measureText(TITLE, titleOf(block, description)), ...measureText(DESCRIPTION, description), media: mediaOf(input.containers[0]) };
  return { parts: [pin], leftOut: input.containers.length - 1 };
}

/**
 * A board; one image, two to five images, or one video, each an image or a video; a title within
 * 100 characters and a description within 800 (PinCreate in Pinterest's v5 API description).
 */
export function judge(input: PreflightPost): PinterestBlock {
  const block = input.block as PinterestBlock | undefined;
  if (!block?.board_id) throw refused('a pin needs pinterest.board_id, the board to pin to');
  const media = input.containers[0]!.media;
  if (media.length === 0) throw refused('a pin needs an image or a video in the first container');
  const other = media.find((m) => mediaKind(m.filename) === 'other');
  if (other) throw refused(`${other.filename} is neither an image nor a video; Pinterest takes JPEG or PNG images and MP4, MOV or M4V videos`);
  if (media.length > 1 && media.some((m) => mediaKind(m.filename) === 'video')) throw refused('a video pin carries one video and nothing else');
  if (media.length > MAX_IMAGES) throw refused(`a pin carries at most ${MAX_IMAGES} images, got ${media.length}`);
  const { title, ...description } = measure(input).parts[0]!;
  if (overLimit(description)) throw refused(`the pin's description is ${description.length} characters; Pinterest takes up to ${description.limit}`);
  if (title && overLimit(title)) throw refused(`pinterest.title is ${title.length} characters; Pinterest takes up to ${title.limit}`);
  return block;
}

const refused = (why: string) => new PublishError('permanent', `pinterest: ${why}`, undefined, 'invalid');
