// Google Business Profile's judgement: what a localPost cannot carry, judged from the post alone. The
// publishing side refuses it before any call (adapter.ts), and the dry run and the create say so
// (media.ts judge; the create's own rules, options.ts, name the field first). Figures:
// youtube-tiktok-gbp-pinterest-vimeo-reddit.md §3.5.
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { isPhoto, MAX_SUMMARY, MAX_TITLE, type GoogleBusinessBlock } from './options.ts';

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
  const summary = block.content ?? input.containers[0]?.content ?? '';
  if ([...summary].length > MAX_SUMMARY) throw refused(`the post's text is ${[...summary].length} characters; a Google Business Profile post takes up to ${MAX_SUMMARY}`);
  if (block.event && [...block.event.title].length > MAX_TITLE) throw refused(`google_business.event.title is ${[...block.event.title].length} characters; Google takes up to ${MAX_TITLE}`);
  if ((block.topicType ?? 'STANDARD') === 'STANDARD' && !summary && !photo) throw refused('a Google Business Profile update needs text or a photo');
}

const refused = (why: string) => new PublishError('permanent', `google_business: ${why}`, undefined, 'invalid');
