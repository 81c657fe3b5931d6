// TikTok's judgement: what TikTok cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge); the
// dry run shows the root as TikTok receives it (measure).
import type { MeasuredPart, MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { mediaKind } from '../media-kind.ts';
import { measureText, mediaOf, overLimit, type TextCounter } from '../measure.ts';
import { cut, MAX_PHOTOS, photoTexts, postModeOf, refused, textOf, VIDEO_CAPTION_MAX } from './bodies.ts';
import { TIKTOK_DESCRIPTION_MAX, TIKTOK_TITLE_MAX, type TiktokBlock } from './options.ts';

const PHOTO_EXTENSIONS = /\.(jpe?g|webp)$/i;

/** TikTok counts UTF-16 code units. */
const utf16 = (limit: number | null): TextCounter => ({ unit: 'utf16', limit, count: (text) => text.length });
const VIDEO_CAPTION = utf16(VIDEO_CAPTION_MAX);
const PHOTO_TITLE = utf16(TIKTOK_TITLE_MAX);
const PHOTO_DESCRIPTION = utf16(TIKTOK_DESCRIPTION_MAX);

/**
 * The root as bodies.ts sends it: a direct-post video's caption, an inbox draft's nothing (the creator
 * writes it in TikTok), a photo post's title and description (each the block's, else the text cut to
 * fit). TikTok takes no replies: later containers are left out.
 */
export function measure(input: PreflightPost): MeasuredPost {
  const block = (input.block ?? {}) as TiktokBlock;
  const root = input.containers[0];
  const text = textOf(block, root?.content ?? '');
  const media = mediaOf(root);
  const photo = photoTexts(block, text);
  const part: MeasuredPart = media.some((m) => m.kind === 'video')
    ? videoPart(block, text, media)
    : { role: 'post', title: measureText(PHOTO_TITLE, photo.title), ...measureText(PHOTO_DESCRIPTION, photo.description), media };
  return { parts: [part], leftOut: input.containers.length - 1 };
}

function videoPart(block: TiktokBlock, text: string, media: MeasuredPart['media']): MeasuredPart {
  if (postModeOf(block) === 'DIRECT_POST') return { role: 'post', ...measureText(VIDEO_CAPTION, text), media };
  return { role: 'post', ...measureText(utf16(null), ''), media, note: 'sent to the creator\'s TikTok inbox as a draft, without a caption: they write it in TikTok' };
}

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
    const caption = measure(input).parts[0]!;
    if (overLimit(caption)) throw refused(`the caption is ${caption.length} UTF-16 code units long; TikTok takes at most ${caption.limit} ("${cut(caption.text, 40)}…")`);
    return 'video';
  }
  if (media.length > MAX_PHOTOS) throw refused(`the first container has ${media.length} photos; TikTok takes at most ${MAX_PHOTOS} in one post`, 'media_rejected');
  const other = media.find((m) => !PHOTO_EXTENSIONS.test(m.filename));
  if (other) throw refused(`${other.filename} is not a JPEG or WebP photo; TikTok takes only those (no PNG)`, 'media_rejected');
  const { title, ...description } = measure(input).parts[0]!;
  if (title && overLimit(title)) throw refused(`tiktok.title is ${title.length} UTF-16 code units long; TikTok takes at most ${title.limit}`);
  if (overLimit(description)) throw refused(`tiktok.description is ${description.length} UTF-16 code units long; TikTok takes at most ${description.limit}`);
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
