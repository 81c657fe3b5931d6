// Google Business Profile's judgement: what a localPost cannot carry, judged from the post alone. The
// publishing side refuses it before any call (adapter.ts), and the dry run and the create say so
// (media.ts judge; the create's own rules, options.ts, name the field first); the dry run shows the
// localPost's summary and title (measure). Figures: youtube-tiktok-gbp-pinterest-vimeo-reddit.md §3.5.
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { characters, measureText, mediaOf, overLimit, rootTextOf } from '../measure.ts';
import { isPhoto, MAX_SUMMARY, MAX_TITLE, type GoogleBusinessBlock } from './options.ts';

const SUMMARY = characters(MAX_SUMMARY);
const EVENT_TITLE = characters(MAX_TITLE);

/**
 * The root as local-post.ts sends it: the summary, an event's or offer's title, the photo. A localPost
 * takes no replies: later containers are left out.
 */
export function measure(input: PreflightPost): MeasuredPost {
  const block = (input.block ?? {}) as GoogleBusinessBlock;
  const event = (block.topicType ?? 'STANDARD') !== 'STANDARD' && block.event ? { title: measureText(EVENT_TITLE, block.event.title) } : {};
  const root = { role: 'post' as const, ...event, ...measureText(SUMMARY, rootTextOf(input)), media: mediaOf(input.containers[0]) };
  return { parts: [root], leftOut: input.containers.length - 1 };
}

/**
 * At most one photo, a JPG or a PNG; a summary within 1,500 characters; an event's title within 58;
 * a standard update with text or a photo.
 */
export function judge(input: PreflightPost): void {
  const block = (input.block ?? {}) as GoogleBusinessBlock;
  const media = input.containers[0]?.media ?? [];
  if (media.length > 1) throw refused(`the first container has ${media.length} media; a Google Business Profile post takes one photo`);
  const photo = media[0];
  if (photo && !isPhoto(photo.filename)) throw refused(`${photo.filename} is not a JPG or PNG photo, the only media a Google Business Profile post takes`);
  const summary = measure(input).parts[0]!;
  if (overLimit(summary)) throw refused(`the post's text is ${summary.length} characters; a Google Business Profile post takes up to ${summary.limit}`);
  const title = block.event && measureText(EVENT_TITLE, block.event.title);
  if (title && overLimit(title)) throw refused(`google_business.event.title is ${title.length} characters; Google takes up to ${title.limit}`);
  if ((block.topicType ?? 'STANDARD') === 'STANDARD' && !summary.text && !photo) throw refused('a Google Business Profile update needs text or a photo');
}

const refused = (why: string) => new PublishError('permanent', `google_business: ${why}`, undefined, 'invalid');
