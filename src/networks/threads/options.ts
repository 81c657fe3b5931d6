// Threads block. The 500-character limit is the one length limit the spec checks at request time
// (POST /v1/posts rule 5): on `threads.content` whenever it is set (a block rule), and on every container
// when a Threads account is targeted, with `threads.content` standing in for the root's text.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue } from '../rules.ts';
import { StringEnum } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';

const schema = Type.Object({
  content: ContentOverride(),
  countries: Type.Optional(Type.Array(Type.String({
    pattern: '^[A-Z]{2}$',
    description: 'an ISO 3166-1 alpha-2 country code in capitals, such as "US"',
  }))),
  reply_control: Type.Optional(StringEnum(['everyone', 'accounts_you_follow', 'mentioned_only'])),
});

export type ThreadsBlock = Static<typeof schema>;

export const THREADS_MAX_LENGTH = 500;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const utf8 = new TextEncoder();
// An emoji grapheme: a pictograph (😀, ❤️, 👩‍👩‍👧), a flag (two regional indicators) or a keycap (1️⃣).
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/**
 * Length as Threads counts it: one per user-perceived character (grapheme), except that an emoji counts
 * as its UTF-8 byte length (😀 = 4, 👍🏽 = 8, 👩‍👩‍👧 = 18). Accented letters and CJK characters count 1.
 */
export function threadsLength(text: string): number {
  let length = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += EMOJI.test(segment) ? utf8.encode(segment).length : 1;
  }
  return length;
}

function tooLong(field: string, text: string, hint: string): FieldIssue[] {
  const length = threadsLength(text);
  if (length <= THREADS_MAX_LENGTH) return [];
  return [issue(field, `is ${length} characters long but Threads allows at most ${THREADS_MAX_LENGTH} `
    + `(emoji count as their UTF-8 byte length, e.g. 4 for 😀); ${hint}`)];
}

export const options: NetworkOptions = {
  network: 'threads',
  schema,
  blockRules(block) {
    const override = (block as ThreadsBlock).content;
    return override === undefined ? [] : tooLong('threads.content', override, 'shorten this Threads text');
  },
  targetRules(block, ctx) {
    const overridden = (block as ThreadsBlock | undefined)?.content !== undefined;
    return ctx.containers.flatMap((container, index) => index === 0 && overridden ? [] : tooLong(
      `containers[${index}].content`, container.content,
      index === 0 ? 'shorten it, or set threads.content to a shorter text for Threads' : 'shorten this reply'));
  },
};
