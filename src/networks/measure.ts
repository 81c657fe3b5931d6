// What every network's `measure` (contract.ts) is made of: a counter (a unit, a limit, how to count),
// shared by the network's judge and its measure so the dry run's preview and publishing's refusal
// count a text the same way; and the parts of a post as most networks publish them.
import type { ContainerInput, PreflightPost } from '../core/post.ts';
import type { MeasuredPart, MeasuredText, TextUnit } from './contract.ts';
import { mediaKind } from './media-kind.ts';

/** How one field of one network is counted, and the most it takes (null: no limit judged). */
export interface TextCounter {
  unit: TextUnit;
  limit: number | null;
  count(text: string): number;
}

/** Unicode code points: what most networks document as "characters". */
export const countCharacters = (text: string): number => [...text].length;

export const characters = (limit: number | null): TextCounter => ({ unit: 'characters', limit, count: countCharacters });

/** The text counted by `counter`. */
export function measureText(counter: TextCounter, text: string): MeasuredText {
  return { text, length: counter.count(text), limit: counter.limit, unit: counter.unit };
}

/** Whether a measured text is longer than its limit: what a judge refuses. */
export const overLimit = (measured: MeasuredText): boolean => measured.limit !== null && measured.length > measured.limit;

/** The root's text as the adapters send it: the block's `content` when set, else the root container's. */
export const rootTextOf = (post: PreflightPost): string =>
  (typeof post.block?.content === 'string' ? post.block.content : post.containers[0]?.content ?? '');

export const mediaOf = (container: ContainerInput | undefined): MeasuredPart['media'] =>
  (container?.media ?? []).map((m) => ({ filename: m.filename, kind: mediaKind(m.filename) }));

/**
 * A thread where every container is a post of its own (a reply to the root), each counted by
 * `counter`: the root with the block's `content` when set.
 */
export function threadOf(post: PreflightPost, counter: TextCounter): MeasuredPart[] {
  return post.containers.map((container, i) => ({
    role: i === 0 ? 'post' : 'reply',
    ...measureText(counter, i === 0 ? rootTextOf(post) : container.content),
    media: mediaOf(container),
  }));
}

/** Later containers published as comments under the post: text only, no limit judged by Crier. */
export function commentsOf(post: PreflightPost): MeasuredPart[] {
  return post.containers.slice(1).map((container) => ({ role: 'comment', ...measureText(characters(null), container.content), media: mediaOf(container) }));
}
