// Pinterest block. A pin always lands on a board, so `board_id` is required: by the schema in every
// Pinterest block, targeted or not, and by the target rule when a Pinterest account is targeted with no
// block at all. Limits are the API's (pinterest/api-description v5 PinCreate): title 100, description
// 800, alt_text 500, link 2,048 characters. What a pin can carry is checked here too, from the file
// names, so a post Pinterest cannot take is refused when it is created rather than when it publishes.
// A cover on a pin that is not a video pin is harmless: dropped with a warning (ignoredFields).
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, rootMedia, rootText } from '../rules.ts';
import { mediaKind } from '../media-kind.ts';
import { FetchedUrl, HttpUrl } from '../../validation/schema.ts';
import type { PreflightPost, TargetContext } from '../../core/post.ts';
import type { NetworkOptions } from '../contract.ts';
import type { FieldIssue } from '../../core/errors.ts';

export const MAX_TITLE = 100;
export const MAX_DESCRIPTION = 800;
/** multiple_image_urls / multiple_image_base64 take 2 to 5 items. */
export const MAX_IMAGES = 5;

const schema = Type.Object({
  content: ContentOverride(),
  board_id: Type.String({ minLength: 1, description: 'a board id as GET /v1/social-accounts/:id/boards lists them' }),
  cover_image_url: Type.Optional(FetchedUrl()),
  link: Type.Optional(HttpUrl({ maxLength: 2048 })),
  alt_text: Type.Optional(Type.String({ maxLength: 500 })),
  title: Type.Optional(Type.String({ maxLength: MAX_TITLE })),
});

export type PinterestBlock = Static<typeof schema>;

/** The pin's description: the block's content, else the root container's. */
export const descriptionOf = (block: PinterestBlock | undefined, rootContent: string): string => block?.content ?? rootContent;

/** The pin's title: the block's, else the first 100 characters of the description (the spec's default). */
export function titleOf(block: PinterestBlock | undefined, description: string): string {
  return block?.title ?? [...description].slice(0, MAX_TITLE).join('');
}

/**
 * The root's media as a pin takes them: one image, two to five images, or one video. (A pin without
 * media is refused by the judgement, shape.ts, as every network that needs media refuses it.)
 */
function mediaIssues(ctx: TargetContext): FieldIssue[] {
  const media = rootMedia(ctx);
  const kinds = media.map((m) => mediaKind(m.filename));
  const other = kinds.indexOf('other');
  if (other >= 0) {
    return [issue(`containers[0].media[${other}].filename`, `Pinterest takes JPEG or PNG images and MP4, MOV or M4V videos; "${media[other]!.filename}" is neither`)];
  }
  if (kinds.includes('video') && media.length > 1) {
    return [issue('containers[0].media', 'a Pinterest video pin carries one video and nothing else; post images and a video separately')];
  }
  if (media.length > MAX_IMAGES) {
    return [issue('containers[0].media', `a Pinterest pin carries at most ${MAX_IMAGES} images, got ${media.length}`)];
  }
  return [];
}

/** A cover is for a video pin (the spec): on any other pin it does nothing, and the create drops it with a warning. */
export function ignoredFields(post: PreflightPost): { field: string; why: string }[] {
  const media = post.containers[0]?.media ?? [];
  const isVideoPin = media.length === 1 && mediaKind(media[0]!.filename) === 'video';
  if ((post.block as PinterestBlock | undefined)?.cover_image_url === undefined || isVideoPin) return [];
  return [{ field: 'cover_image_url', why: 'a cover is for a video pin (exactly one video in the first container), and this pin has none' }];
}

export const options: NetworkOptions = {
  network: 'pinterest',
  schema,
  blockRules(raw) {
    const block = raw as PinterestBlock;
    if (block.content !== undefined && [...block.content].length > MAX_DESCRIPTION) {
      return [issue('pinterest.content', `becomes the pin's description, which Pinterest limits to ${MAX_DESCRIPTION} characters`)];
    }
    return [];
  },
  targetRules(raw, ctx) {
    if (raw === undefined) {
      return [issue('pinterest.board_id', 'is required when a Pinterest account is targeted; '
        + 'add a "pinterest": {"board_id": "..."} block naming the board to pin to')];
    }
    const block = raw as PinterestBlock;
    const issues = mediaIssues(ctx);
    if (block.content === undefined && [...rootText('pinterest', ctx)].length > MAX_DESCRIPTION) {
      issues.push(issue('containers[0].content', `becomes the Pinterest pin's description, limited to ${MAX_DESCRIPTION} characters; shorten it or set pinterest.content`));
    }
    return issues;
  },
};
