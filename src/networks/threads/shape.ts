// Threads' judgement: what Threads cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), a dry run reports it (media.ts judge) and shows the post as
// Threads counts it (measure), and the create refuses it too (the spec checks the 500 characters at
// create: options.ts says it per field first).
import type { MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { overLimit, threadOf, type TextCounter } from '../measure.ts';
import { THREADS_MAX_LENGTH, threadsLength } from './options.ts';

/** A carousel takes 2 to 20 items (posts doc). */
const MAX_MEDIA = 20;

const POST_TEXT: TextCounter = { unit: 'emoji_bytes', limit: THREADS_MAX_LENGTH, count: threadsLength };

/** Every container a post of the thread (the root with threads.content when set), counted as Threads counts. */
export const measure = (input: PreflightPost): MeasuredPost => ({ parts: threadOf(input, POST_TEXT), leftOut: 0 });

/**
 * What Threads cannot publish, refused before any call: a container with neither text nor media, more
 * than 20 media, media that are neither images nor videos, a text over 500 characters as Threads counts them.
 */
export function judge(input: PreflightPost): void {
  measure(input).parts.forEach((part, i) => {
    if (!part.text && part.media.length === 0) throw refused(`container ${i + 1} has neither text nor media`);
    if (part.media.length > MAX_MEDIA) throw refused(`container ${i + 1} has ${part.media.length} media; a Threads carousel takes at most ${MAX_MEDIA}`);
    const other = part.media.find((media) => media.kind === 'other');
    if (other) throw refused(`${other.filename} is neither an image nor a video; Threads takes JPEG or PNG images and MP4 or MOV videos`);
    if (overLimit(part)) throw refused(`container ${i + 1} is ${part.length} characters long; Threads allows ${part.limit} (emoji count as their UTF-8 byte length)`);
  });
}

const refused = (why: string) => new PublishError('permanent', `threads: ${why}`, undefined, 'invalid');
