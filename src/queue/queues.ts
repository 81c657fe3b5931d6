// The pg-boss queues Crier uses, with their policies, in one place.
import type { Queue } from 'pg-boss';

export const PUBLISH_QUEUE = 'publish';

/** Payload of a publishing job: one job per target (post x account). */
export interface PublishJob {
  targetId: number;
  postId: number;
  /** The post's generation when the job was queued; a job of an older generation is a no-op. */
  generation: number;
}

export const QUEUES: Queue[] = [
  {
    name: PUBLISH_QUEUE,
    // pg-boss retries only what the engine did not handle (a crash, a lost database): soon, and the
    // attempt fence makes it safe. Network errors are retried by the engine with its own backoff.
    expireInSeconds: 900,
    retryLimit: 10,
    retryDelay: 2,
    retryBackoff: true,
    // A job takes its queue's heartbeat when inserted: a worker that dies (kill -9) stops beating and
    // its job is retried after this, instead of after expireInSeconds. Configurable at start.
    heartbeatSeconds: 30,
  },
];
