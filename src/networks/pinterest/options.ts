// Pinterest block. A pin always lands on a board, so `board_id` is required whenever a Pinterest account
// is targeted; it is checked here rather than in the schema so that requests not targeting Pinterest
// are not held to it.
import { Type, type Static } from 'typebox';
import { ContentOverride, issue } from '../rules.ts';
import { HttpUrl } from '../../validation/schema.ts';
import type { NetworkOptions } from '../types.ts';

const schema = Type.Object({
  content: ContentOverride(),
  board_id: Type.Optional(Type.String({ minLength: 1 })),
  cover_image_url: Type.Optional(HttpUrl()),
  link: Type.Optional(HttpUrl()),
  alt_text: Type.Optional(Type.String({ maxLength: 500 })),
  title: Type.Optional(Type.String({ maxLength: 100 })),
});

export type PinterestBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'pinterest',
  schema,
  check(raw) {
    const block = raw as PinterestBlock | undefined;
    if (block?.board_id !== undefined) return [];
    return [issue('pinterest.board_id', 'is required when a Pinterest account is targeted; '
      + 'add a "pinterest": {"board_id": "..."} block naming the board to pin to')];
  },
};
