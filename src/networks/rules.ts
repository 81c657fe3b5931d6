// Helpers shared by several networks' request-time rules, so the same situation reads the same way
// (same field paths, same wording) whichever network complains about it.
import { Type } from '../validation/json-schema.ts';
import { mediaKind } from './media-kind.ts';
import type { FieldIssue } from '../core/errors.ts';
import type { MediaInput, PostContent } from '../core/post.ts';
import type { NetworkId } from '../core/network-id.ts';

/** Every block's `content`: the root text published on that network instead of the shared body. */
export const ContentOverride = () => Type.Optional(Type.String({ minLength: 1 }));

export const issue = (field: string, message: string): FieldIssue => ({ field, message });

/** For a network with no rules of that kind. */
export const noRules = (): FieldIssue[] => [];

export function rootMedia(ctx: PostContent): MediaInput[] {
  return ctx.containers[0]?.media ?? [];
}

/** The root text a network publishes: its block's `content` when set, else the root container's. */
export function rootText(network: NetworkId, ctx: PostContent): string {
  const override = ctx.blocks[network]?.content;
  return typeof override === 'string' ? override : (ctx.containers[0]?.content ?? '');
}

/** True when the root container holds exactly one video (Reels, video covers, trial reels). */
export function isSingleVideo(ctx: PostContent): boolean {
  const media = rootMedia(ctx);
  return media.length === 1 && mediaKind(media[0]!.filename) === 'video';
}

/** A Story is exactly one image or one video in the root container (Facebook and Instagram alike). */
export function storyMediaIssues(ctx: PostContent, label: string): FieldIssue[] {
  const media = rootMedia(ctx);
  if (media.length !== 1) {
    return [issue('containers[0].media', `${label} Story needs exactly one image or video in the first container, `
      + `got ${media.length} media; carousels and text-only Stories are not possible`)];
  }
  if (mediaKind(media[0]!.filename) === 'other') {
    return [issue('containers[0].media[0].filename', `${label} Story takes only an image or a video, and `
      + `"${media[0]!.filename}" is neither: use a jpg, jpeg, png, gif, webp or heic image, or an mp4, mov, m4v or webm video`)];
  }
  return [];
}
