// The test handle of the emulator's publishing side: what was created and published, in order, and
// one-shot behaviours (a container that fails, expires or never finishes; a FINISHED container whose
// publish answers "Media Not Found"; the publishing limit spent).
import { statusOf } from '../containers.ts';
import type { ContainerStatus, ThreadsContainer, ThreadsMedia, ThreadsWorld } from '../state.ts';

export interface PublishingControls {
  /** Published posts and replies, in publishing order (copies). */
  published(): ThreadsMedia[];
  /** Containers created, in order, with their current status (copies). */
  containers(): (ThreadsContainer & { status: ContainerStatus })[];
  /** The next container created ends in ERROR with this error_message (e.g. FAILED_PROCESSING_VIDEO). */
  failNextContainer(errorMessage: string): void;
  /** The next container created is already EXPIRED (as if not published within 24 h). */
  expireNextContainer(): void;
  /** The next container created (with this text, when given) stays IN_PROGRESS until released. */
  stickNextContainer(text?: string): void;
  releaseContainer(id: string): void;
  /** The next `times` publishes of a FINISHED container answer code 24/4279009 "Media Not Found". */
  notFoundOnPublish(times?: number): void;
  /** The next publish is carried out, but its answer comes `ms` later (a sender killed meanwhile never learns the id). */
  delayNextPublishAnswer(ms: number): void;
  /** The next publish (with this text, when given) is carried out but answered with a 500: the sender never learns the id. */
  loseNextPublishAnswer(text?: string): void;
  /** Trusts this certificate authority (PEM) when fetching media: a test's HTTPS hosts. */
  trustCa(pem: string): void;
  /** Records `count` posts (or replies) published `agoMs` ago by the user, as if by another app: they use the quota. */
  usePublishingQuota(userId: string, count: number, options?: { replies?: boolean; agoMs?: number }): void;
}

export function publishingControls(world: ThreadsWorld): PublishingControls {
  const { publishing } = world;
  return {
    published: () => structuredClone(publishing.media),
    containers: () => [...publishing.containers.values()].map((c) => ({ ...structuredClone(c), status: statusOf(world, c).status })),
    failNextContainer: (message) => void (publishing.faults.failNextContainer = message),
    expireNextContainer: () => void (publishing.faults.expireNextContainer = true),
    stickNextContainer: (text) => void (publishing.faults.stickNextContainer = { text }),
    releaseContainer: (id) => {
      const container = publishing.containers.get(id);
      if (container) container.stuck = false;
    },
    delayNextPublishAnswer: (ms) => void (publishing.faults.delayPublishAnswerMs = ms),
    loseNextPublishAnswer: (text) => void (publishing.faults.losePublishAnswer = { text }),
    trustCa: (pem) => void publishing.fetchCa.push(pem),
    notFoundOnPublish: (times = 1) => void (publishing.faults.notFoundPublishes += times),
    usePublishingQuota: (userId, count, { replies = false, agoMs = 0 } = {}) => {
      for (let i = 0; i < count; i++) {
        publishing.media.push({
          id: `quota-${userId}-${publishing.media.length}`, containerId: '', userId, username: world.users.get(userId)?.username ?? userId,
          mediaType: 'TEXT_POST', text: undefined, replyToId: replies ? 'elsewhere' : undefined, rootId: '', replyControl: 'everyone',
          allowlistedCountryCodes: undefined, media: [], shortcode: '', permalink: '', publishedAt: world.clock.now() - agoMs,
        });
      }
    },
  };
}
