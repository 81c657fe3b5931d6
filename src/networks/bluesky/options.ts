// Bluesky block: only a text override. The spec says the Bluesky 300-character limit is not
// checked at request time (the network enforces it when publishing), so there are no request-time rules.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, noRules } from '../rules.ts';
import type { NetworkOptions } from '../contract.ts';

const schema = Type.Object({
  content: ContentOverride(),
});

export type BlueskyBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'bluesky',
  schema,
  blockRules: noRules,
  targetRules: noRules,
};
