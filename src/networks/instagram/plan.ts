// What the root container becomes on Instagram, as the container parameters of Meta's IG User Media
// reference: one image (image_url), one video as a Reel (media_type=REELS: every feed video is a Reel
// since 2023), a Story (media_type=STORIES, no caption), or a carousel (2-10 items created with
// is_carousel_item, then the CAROUSEL container naming them in order). Decided before any call, so a
// shape Instagram cannot take fails the destination with nothing created.
import type { PreflightPost, MediaInput } from '../../core/post.ts';
import type { PublishInput } from '../contract.ts';
import { PublishError } from '../../core/errors.ts';
import type { InstagramBlock } from './options.ts';
import { overLimit } from '../measure.ts';
import { captionOf, measure } from './shape.ts';

/** Instagram takes JPEG and PNG images, MP4 and MOV video (spec rule 9). */
const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'mov']);
const MAX_CAROUSEL = 10;

export interface ContainerPlan {
  /** One container per item: the single one, or the carousel's items in order. */
  items: { params: Record<string, string>; filename: string }[];
  /** The CAROUSEL container's parameters (children are added once the items exist). */
  parent?: Record<string, string>;
  story: boolean;
  /** The caption the published media carries ('' for none): how reconcile recognises it. */
  caption: string;
}

export function planRoot(input: PublishInput): ContainerPlan {
  const block = (input.block ?? {}) as InstagramBlock;
  const media = input.containers[0]!.media;
  checkShape(input);
  const story = block.publishAsStory === true;
  const caption = captionOf(input);
  const kinds = media.map(kindOf);
  const altFor = (i: number) => (i === 0 ? block.altText ?? media[0]!.altText : media[i]!.altText);
  const tags: Params = block.userTags?.length ? { user_tags: JSON.stringify(block.userTags.map(({ username, x, y }) => ({ username, x, y }))) } : {};
  const shared: Params = {
    ...(caption ? { caption } : {}),
    ...(block.locationId ? { location_id: block.locationId } : {}),
    ...(block.collaborators?.length ? { collaborators: JSON.stringify(block.collaborators) } : {}),
    ...(block.isAiGenerated === true ? { is_ai_generated: 'true' } : {}),
  };
  if (story) {
    const url: Params = kinds[0] === 'image' ? { image_url: media[0]!.url } : { video_url: media[0]!.url };
    return { items: [{ params: { media_type: 'STORIES', ...url, ...tags }, filename: media[0]!.filename }], story, caption };
  }
  if (media.length === 1 && kinds[0] === 'image') {
    const alt = altFor(0);
    const altText: Params = alt ? { alt_text: alt } : {};
    return { items: [{ params: { image_url: media[0]!.url, ...shared, ...tags, ...altText }, filename: media[0]!.filename }], story, caption };
  }
  if (media.length === 1) return { items: [{ params: reelParams(media[0]!, block, shared, tags), filename: media[0]!.filename }], story, caption };
  // A carousel: user tags go on its first image (Meta tags items, not the album).
  const firstImage = kinds.indexOf('image');
  const items = media.map((m, i) => {
    const alt = altFor(i);
    const altText: Params = alt ? { alt_text: alt } : {};
    const params: Params = kinds[i] === 'image'
      ? { is_carousel_item: 'true', image_url: m.url, ...altText, ...(i === firstImage ? tags : {}) }
      : { is_carousel_item: 'true', media_type: 'VIDEO', video_url: m.url };
    return { params, filename: m.filename };
  });
  return { items, parent: { media_type: 'CAROUSEL', ...shared }, story, caption };
}

function reelParams(video: MediaInput, block: InstagramBlock, shared: Record<string, string>, tags: Record<string, string>): Record<string, string> {
  // The cover takes precedence over the frame offset (spec); a trial Reel is shown to non-followers
  // first, so it is not shared to the feed at once.
  const cover: Params = block.reelCoverUrl ? { cover_url: block.reelCoverUrl } : block.reelThumbOffset !== undefined ? { thumb_offset: String(Math.round(block.reelThumbOffset)) } : {};
  const trial: Params = block.trialReel ? { trial_params: JSON.stringify({ graduation_strategy: block.trialReel.graduationStrategy }) } : { share_to_feed: 'true' };
  return { media_type: 'REELS', video_url: video.url, ...shared, ...tags, ...cover, ...trial };
}

/**
 * Instagram's judgement: what it cannot publish, before any call (planRoot); also the dry run's and
 * the create's (media.ts judge). The media, then the caption's 2,200 characters.
 */
export function checkShape(input: PreflightPost): void {
  const block = (input.block ?? {}) as InstagramBlock;
  const media = input.containers[0]!.media;
  input.containers.slice(1).forEach((container, i) => {
    if (container.media.length) throw refused(`container ${i + 2} has media, but Instagram publishes later containers as comments, which carry text only`);
  });
  if (media.length === 0) throw refused('Instagram needs an image or a video in the first container');
  if (media.length > MAX_CAROUSEL) throw refused(`the post has ${media.length} media; an Instagram carousel takes 2 to ${MAX_CAROUSEL}`);
  if (block.publishAsStory === true && media.length !== 1) throw refused('an Instagram Story is one image or one video');
  media.forEach(kindOf);
  const caption = measure(input).parts[0]!;
  if (overLimit(caption)) throw refused(`the caption is ${caption.length} characters; Instagram takes up to ${caption.limit}`);
}

function kindOf(media: MediaInput): 'image' | 'video' {
  const name = media.filename.includes('.') ? media.filename : new URL(media.url).pathname;
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  if (IMAGE_EXTENSIONS.has(extension)) return 'image';
  if (VIDEO_EXTENSIONS.has(extension)) return 'video';
  throw new PublishError('permanent', `instagram: ${media.filename} is not a JPEG or PNG image nor an MP4 or MOV video; Instagram takes only those`, undefined, 'media_rejected');
}

type Params = Record<string, string>;

const refused = (why: string) => new PublishError('permanent', `instagram: ${why}`, undefined, 'invalid');
