// Answering a post or one of its replies (create-replies doc): a TEXT container with `reply_to_id`
// (the root, or the reply answered), its status asked until FINISHED, then threads_publish — the same
// two steps as publishing. The answer is awaited here (a route waits for it), so the waits are short
// and bounded: a text container is normally ready at once. "Media Not Found" right after FINISHED (a
// known Threads race, as publishing meets it) is tried again a few times.
import type { AccountSession } from '../capabilities.ts';
import type { PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { isMediaNotFound, type ThreadsClient } from './client.ts';
import { THREADS_MAX_LENGTH, threadsLength } from './options.ts';
import { clientFor } from './session.ts';

export interface ReplyTiming {
  /** The first wait before asking for the container's status again; it doubles each time. */
  pollMs: number;
  /** Waiting longer than this for FINISHED gives up (retryable). */
  maxWaitMs: number;
}

export const REPLY_TIMING: ReplyTiming = { pollMs: 500, maxWaitMs: 30_000 };
const NOT_FOUND_RETRIES = 3;

export async function replyTo(apiUrl: string, timing: ReplyTiming, session: AccountSession, post: PublishedPost, text: string, parentCommentId?: string): Promise<{ replyId: string }> {
  checkText(text);
  const client = clientFor(apiUrl, session);
  const container = await client.createContainer({ media_type: 'TEXT', text, reply_to_id: parentCommentId ?? post.root.platformId });
  await untilFinished(client, container, timing);
  return { replyId: await publishWithRetries(client, container, timing) };
}

function checkText(text: string): void {
  if (!text.trim()) throw new PublishError('permanent', 'threads: a reply needs text', undefined, 'invalid');
  const length = threadsLength(text);
  if (length > THREADS_MAX_LENGTH) {
    throw new PublishError('permanent', `threads: the reply is ${length} characters long but Threads allows at most ${THREADS_MAX_LENGTH} (emoji count as their UTF-8 byte length)`, undefined, 'invalid');
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilFinished(client: ThreadsClient, container: string, timing: ReplyTiming): Promise<void> {
  const started = Date.now();
  for (let wait = timing.pollMs; ; wait *= 2) {
    const { status, errorMessage } = await client.containerStatus(container);
    if (status === 'FINISHED') return;
    if (status === 'ERROR' || status === 'EXPIRED' || status === 'PUBLISHED') {
      throw new PublishError('permanent', `threads: the reply's container ${container} is ${status}${errorMessage ? ` (${errorMessage})` : ''}`, undefined, 'invalid');
    }
    if (Date.now() - started + wait > timing.maxWaitMs) {
      throw new PublishError('retryable', `threads: the reply's container ${container} was still ${status} after ${Math.round((Date.now() - started) / 1000)} s; try again`, undefined, 'server');
    }
    await sleep(wait);
  }
}

async function publishWithRetries(client: ThreadsClient, container: string, timing: ReplyTiming): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.publish(container);
    } catch (error) {
      if (!(error instanceof PublishError) || !isMediaNotFound(error) || attempt >= NOT_FOUND_RETRIES) throw error;
      await sleep(timing.pollMs * 2 ** attempt);
    }
  }
}
