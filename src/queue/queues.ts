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
    // A crashed worker's job comes back after this; the attempt rows make the retry safe.
    expireInSeconds: 300,
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
  },
];
