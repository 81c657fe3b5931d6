// Container life on the emulator clock: IN_PROGRESS until its processing time has passed (and its
// video fetched), then FINISHED; ERROR when the media could not be fetched or processed; EXPIRED when
// not published within 24 h; PUBLISHED once published. A carousel is ready when all its children are.
import type { ContainerStatus, ThreadsContainer, ThreadsWorld } from './state.ts';

export function statusOf(world: ThreadsWorld, container: ThreadsContainer): { status: ContainerStatus; errorMessage?: string } {
  const now = world.clock.now();
  if (container.publishedAs) return { status: 'PUBLISHED' };
  if (container.errorMessage) return { status: 'ERROR', errorMessage: container.errorMessage };
  if (now - container.createdAt > world.publishing.settings.expiryMs) return { status: 'EXPIRED' };
  if (container.stuck || container.fetching || now < container.readyAt) return { status: 'IN_PROGRESS' };
  for (const childId of container.children) {
    const child = world.publishing.containers.get(childId);
    const status = child ? statusOf(world, child) : { status: 'ERROR' as const, errorMessage: 'UNKNOWN' };
    if (status.status === 'ERROR') return status;
    if (status.status !== 'FINISHED') return { status: 'IN_PROGRESS' };
  }
  return { status: 'FINISHED' };
}

/** Threads' length: one per grapheme, an emoji its UTF-8 byte length (posts doc, text limit). */
export function threadsLength(text: string): number {
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(segment) ? Buffer.byteLength(segment) : 1;
  }
  return length;
}

/** The distinct http(s) links of a text, for the 5-link limit (bare domains are not counted: not confirmed how Threads counts them). */
export function linksIn(text: string): string[] {
  const found = text.match(/\bhttps?:\/\/[^\s<>"]+/gi) ?? [];
  return [...new Set(found.map((link) => link.replace(/[.,;:!?)]+$/, '').replace(/^https?:\/\//i, '').toLowerCase()))];
}
