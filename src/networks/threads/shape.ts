// Threads' judgement: what Threads cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), a dry run reports it (media.ts judge), and the create
// refuses it too (the spec checks the 500 characters at create: options.ts says it per field first).
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaKind } from '../media-kind.ts';
import { THREADS_MAX_LENGTH, threadsLength, type ThreadsBlock } from './options.ts';

/** A carousel takes 2 to 20 items (posts doc). */
const MAX_MEDIA = 20;

/**
 * What Threads cannot publish, refused before any call: a container with neither text nor media, more
 * than 20 media, media that are neither images nor videos, a text over 500 characters as Threads counts them.
 */
export function judge(input: PreflightPost): void {
  input.containers.forEach((container, i) => {
    const text = i === 0 ? ((input.block as ThreadsBlock | undefined)?.content ?? container.content) : container.content;
    if (!text && container.media.length === 0) throw refused(`container ${i + 1} has neither text nor media`);
    if (container.media.length > MAX_MEDIA) throw refused(`container ${i + 1} has ${container.media.length} media; a Threads carousel takes at most ${MAX_MEDIA}`);
    for (const media of container.media) {
      if (mediaKind(media.filename) === 'other') throw refused(`${media.filename} is neither an image nor a video; Threads takes JPEG or PNG images and MP4 or MOV videos`);
    }
    const length = threadsLength(text);
    if (length > THREADS_MAX_LENGTH) throw refused(`container ${i + 1} is ${length} characters long; Threads allows ${THREADS_MAX_LENGTH} (emoji count as their UTF-8 byte length)`);
  });
}

const refused = (why: string) => new PublishError('permanent', `threads: ${why}`, undefined, 'invalid');
