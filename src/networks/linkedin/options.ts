// LinkedIn block. Mentions are written into the commentary by finding their text, so a name that is not in
// the text would publish a broken mention; the spec has it rejected here instead, whatever is targeted.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, noRules, rootText } from '../rules.ts';
import { placeMentions } from './commentary.ts';
import { FetchedUrl } from '../../validation/schema.ts';
import type { NetworkOptions } from '../contract.ts';

const schema = Type.Object({
  content: ContentOverride(),
  article: Type.Optional(Type.Object({
    source: FetchedUrl(),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    thumbnailUrl: Type.Optional(FetchedUrl()),
  })),
  mentions: Type.Optional(Type.Array(Type.Object({
    urn: Type.String({
      pattern: '^urn:li:(organization|person):[^\\s]+$',
      description: 'a LinkedIn URN such as "urn:li:person:abc123" or "urn:li:organization:123"',
    }),
    text: Type.String({ minLength: 1 }),
  }))),
  caption: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
});

export type LinkedinBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'linkedin',
  schema,
  blockRules(raw, post) {
    const block = raw as LinkedinBlock;
    // Mentions resolve against what LinkedIn publishes: linkedin.content when set, else the root text.
    const text = rootText('linkedin', post);
    const where = block.content !== undefined ? 'linkedin.content' : 'the first container\'s content';
    // The same placement as publishing (commentary.ts): a mention with no free occurrence of its text
    // would be published without its link.
    const mentions = block.mentions ?? [];
    const starts = placeMentions(text, mentions);
    return mentions.flatMap((mention, i) => {
      if (starts[i] !== undefined) return [];
      const field = `linkedin.mentions[${i}].text`;
      if (!text.includes(mention.text)) {
        return [issue(field, `"${mention.text}" does not appear in ${where}; it must appear there verbatim (case-sensitive) to become the mention`)];
      }
      return [issue(field, `"${mention.text}" appears in ${where} fewer times than mentions use it (each mention takes an occurrence of its own); write it once more or drop this mention`)];
    });
  },
  targetRules: noRules,
};
