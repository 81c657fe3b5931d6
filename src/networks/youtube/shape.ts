// YouTube's judgement: what YouTube cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge).
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { descriptionProblem, titleProblem } from './metadata.ts';
import type { YoutubeBlock } from './options.ts';

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
  const description = descriptionProblem(block.content ?? root.content);
  if (description) throw refused(`the description ${description}`);
  const title = block.title === undefined ? undefined : titleProblem(block.title);
  if (title) throw refused(`youtube.title ${title}`);
  return block;
}

const refused = (why: string) => new PublishError('permanent', `youtube: ${why}`, undefined, 'invalid');
