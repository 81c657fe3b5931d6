// Pinterest block. A pin always lands on a board, so `board_id` is required: by the schema in every
// Pinterest block, targeted or not, and by the target rule when a Pinterest account is targeted with no
// block at all.
import { Type, type Static } from 'typebox';
import { ContentOverride, issue, noRules } from '../rules.ts';
import { FetchedUrl, HttpUrl } from '../../validation/schema.ts';
import type { NetworkOptions } from '../types.ts';

const schema = Type.Object({
  content: ContentOverride(),
  board_id: Type.String({ minLength: 1 }),
  cover_image_url: Type.Optional(FetchedUrl()),
  link: Type.Optional(HttpUrl()),
  alt_text: Type.Optional(Type.String({ maxLength: 500 })),
  title: Type.Optional(Type.String({ maxLength: 100 })),
});

export type PinterestBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'pinterest',
  schema,
  blockRules: noRules,
  targetRules(block) {
    if (block !== undefined) return [];
    return [issue('pinterest.board_id', 'is required when a Pinterest account is targeted; '
      + 'add a "pinterest": {"board_id": "..."} block naming the board to pin to')];
  },
};
