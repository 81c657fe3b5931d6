// Pinterest's judgement: what Pinterest cannot publish, judged from the post alone. The publishing
// side refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge;
// the create's own rules, options.ts, name the field first).
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { descriptionOf, MAX_DESCRIPTION, MAX_IMAGES, MAX_TITLE, titleOf, type PinterestBlock } from './options.ts';

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
  const description = descriptionOf(block, input.containers[0]!.content);
  if ([...description].length > MAX_DESCRIPTION) throw refused(`the pin's description is ${[...description].length} characters; Pinterest takes up to ${MAX_DESCRIPTION}`);
  const title = titleOf(block, description);
  if ([...title].length > MAX_TITLE) throw refused(`pinterest.title is ${[...title].length} characters; Pinterest takes up to ${MAX_TITLE}`);
  return block;
}

const refused = (why: string) => new PublishError('permanent', `pinterest: ${why}`, undefined, 'invalid');
