// What Crier sends TikTok for a post, from the tiktok block (options.ts), and what it checks first
// against the creator's current settings (creator_info): the Content Posting API's Direct Post,
// Upload (inbox) and Photo references name the fields; the UX guidelines say the creator's privacy
// options and disabled interactions bind the app.
import { PublishError } from '../../core/errors.ts';
import type { ChunkPlan } from './chunks.ts';
import type { CreatorInfo } from './client.ts';
import { TIKTOK_DESCRIPTION_MAX, TIKTOK_TITLE_MAX, type TiktokBlock } from './options.ts';

/** A direct-post video's caption (post_info.title): 2,200 UTF-16 code units. */
export const VIDEO_CAPTION_MAX = 2200;
/** Photos in one photo post. */
export const MAX_PHOTOS = 35;

export type PostMode = 'DIRECT_POST' | 'MEDIA_UPLOAD';

export const postModeOf = (block: TiktokBlock): PostMode => block.postMode ?? 'MEDIA_UPLOAD';

/** The text of the post: the block's content, else the root container's. */
export const textOf = (block: TiktokBlock, rootContent: string): string => block.content ?? rootContent;

/** The body of /video/init/ (direct) or /inbox/video/init/ (a draft takes only the source). */
export function videoInitBody(block: TiktokBlock, text: string, plan: ChunkPlan, creator: CreatorInfo | undefined): Record<string, unknown> {
  const source_info = { source: 'FILE_UPLOAD', video_size: plan.videoSize, chunk_size: plan.chunkSize, total_chunk_count: plan.count };
  if (postModeOf(block) === 'MEDIA_UPLOAD' || !creator) return { source_info };
  const post_info: Record<string, unknown> = {
    title: text,
    privacy_level: block.privacyLevel,
    disable_comment: block.disableComment ?? creator.commentDisabled,
    disable_duet: block.disableDuet ?? creator.duetDisabled,
    disable_stitch: block.disableStitch ?? creator.stitchDisabled,
    brand_content_toggle: block.brandContentToggle ?? false,
    brand_organic_toggle: block.brandOrganicToggle ?? false,
    is_aigc: block.isAigc ?? false,
  };
  if (block.videoCoverTimestampMs !== undefined) post_info.video_cover_timestamp_ms = block.videoCoverTimestampMs;
  return { post_info, source_info };
}

/** A photo post's title and description as sent (and previewed): the block's, else the text cut to fit. */
export function photoTexts(block: TiktokBlock, text: string): { title: string; description: string } {
  return { title: block.title ?? cut(text, TIKTOK_TITLE_MAX), description: block.description ?? cut(text, TIKTOK_DESCRIPTION_MAX) };
}

/**
 * The body of /content/init/ for photos pulled from their URLs. Title and description default to the
 * post's text (the title cut to 90 UTF-16 units); the settings a creator chooses in TikTok's editing
 * flow (privacy, comments, music, disclosures) go with a direct post only.
 */
export function photoInitBody(block: TiktokBlock, text: string, urls: string[], creator: CreatorInfo | undefined): Record<string, unknown> {
  const mode = postModeOf(block);
  const post_info: Record<string, unknown> = { ...photoTexts(block, text) };
  if (mode === 'DIRECT_POST' && creator) {
    Object.assign(post_info, {
      privacy_level: block.privacyLevel,
      disable_comment: block.disableComment ?? creator.commentDisabled,
      auto_add_music: block.autoAddMusic ?? false,
      brand_content_toggle: block.brandContentToggle ?? false,
      brand_organic_toggle: block.brandOrganicToggle ?? false,
    });
  }
  return {
    media_type: 'PHOTO',
    post_mode: mode,
    post_info,
    source_info: { source: 'PULL_FROM_URL', photo_images: urls, photo_cover_index: 0 },
  };
}

/**
 * What the creator's settings forbid, refused before anything is sent: a privacy level TikTok does not
 * offer them now, an interaction they turned off asked on, a video longer than they may post.
 */
export function checkAgainstCreator(block: TiktokBlock, creator: CreatorInfo, video: { seconds: number | undefined } | undefined): void {
  const level = block.privacyLevel;
  if (!level || !creator.privacyLevelOptions.includes(level)) {
    throw refused(`tiktok.privacyLevel: ${level ?? '(none)'} is not offered to @${creator.username} now; TikTok offers ${creator.privacyLevelOptions.join(', ') || 'no privacy level'}`);
  }
  const asked = (field: 'disableComment' | 'disableDuet' | 'disableStitch', disabled: boolean, what: string) => {
    if (block[field] === false && disabled) throw refused(`tiktok.${field}: ${what} are turned off in @${creator.username}'s TikTok settings, so they cannot be turned on for this post`);
  };
  asked('disableComment', creator.commentDisabled, 'comments');
  if (!video) return;
  asked('disableDuet', creator.duetDisabled, 'duets');
  asked('disableStitch', creator.stitchDisabled, 'stitches');
  const max = creator.maxVideoPostDurationSec;
  if (max !== undefined && video.seconds !== undefined && video.seconds > max) {
    throw refused(`containers[0].media[0]: the video is ${Math.round(video.seconds * 10) / 10} s long; @${creator.username} may post videos of at most ${max} s (max_video_post_duration_sec)`);
  }
}

/** At most `max` UTF-16 code units, never splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return text.slice(0, end);
}

export const refused = (why: string, code: 'invalid' | 'media_rejected' = 'invalid') => new PublishError('permanent', `tiktok: ${why}`, undefined, code);
