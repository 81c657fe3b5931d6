// TikTok's judgement: what TikTok cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge).
import type { PreflightPost } from '../../core/post.ts';
import { mediaKind } from '../media-kind.ts';
import { cut, MAX_PHOTOS, postModeOf, refused, textOf, VIDEO_CAPTION_MAX } from './bodies.ts';
import { TIKTOK_DESCRIPTION_MAX, TIKTOK_TITLE_MAX, type TiktokBlock } from './options.ts';

const PHOTO_EXTENSIONS = /\.(jpe?g|webp)$/i;

/**
 * What TikTok cannot publish, refused before any call: a root with one video, or 1 to 35 JPEG or
 * WebP photos, no private branded content, a direct-post caption within 2,200 UTF-16 units, a photo post's title and description
 * within 90 and 4,000 (the text they default to is cut to fit).
 */
export function shapeOf(input: PreflightPost): 'video' | 'photo' {
  const block = (input.block ?? {}) as TiktokBlock;
  const media = input.containers[0]!.media;
  const kinds = media.map((m) => mediaKind(m.filename));
  if (!media.length) throw refused('a TikTok post needs a video or photos in its first container');
  checkBrandedPrivacy(block);
  if (kinds.includes('video')) {
    if (media.length > 1) throw refused(`the first container has ${media.length} media with a video; TikTok posts one video alone, or photos`, 'media_rejected');
    const text = textOf(block, input.containers[0]!.content);
    if (postModeOf(block) === 'DIRECT_POST' && text.length > VIDEO_CAPTION_MAX) {
      throw refused(`the caption is ${text.length} UTF-16 code units long; TikTok takes at most ${VIDEO_CAPTION_MAX} ("${cut(text, 40)}…")`);
    }
    return 'video';
  }
  if (media.length > MAX_PHOTOS) throw refused(`the first container has ${media.length} photos; TikTok takes at most ${MAX_PHOTOS} in one post`, 'media_rejected');
  const other = media.find((m) => !PHOTO_EXTENSIONS.test(m.filename));
  if (other) throw refused(`${other.filename} is not a JPEG or WebP photo; TikTok takes only those (no PNG)`, 'media_rejected');
  if (block.title !== undefined && block.title.length > TIKTOK_TITLE_MAX) throw refused(`tiktok.title is ${block.title.length} UTF-16 code units long; TikTok takes at most ${TIKTOK_TITLE_MAX}`);
  if (block.description !== undefined && block.description.length > TIKTOK_DESCRIPTION_MAX) {
    throw refused(`tiktok.description is ${block.description.length} UTF-16 code units long; TikTok takes at most ${TIKTOK_DESCRIPTION_MAX}`);
  }
  return 'photo';
}

/**
 * Branded content (a paid partnership, `brandContentToggle`) cannot be private, TikTok's content
 * sharing guidelines say: a direct post asking both is refused. An inbox draft sends neither (the
 * creator chooses them in the app).
 */
function checkBrandedPrivacy(block: TiktokBlock): void {
  if (postModeOf(block) !== 'DIRECT_POST' || block.brandContentToggle !== true || block.privacyLevel !== 'SELF_ONLY') return;
  throw refused('tiktok.brandContentToggle: branded content cannot be private on TikTok; choose a privacyLevel other than SELF_ONLY, or leave brandContentToggle off');
}
