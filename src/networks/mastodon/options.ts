// The mastodon block: a text for the root, the content warning, who sees the post, its language,
// whether its media are sensitive, and a poll on the root (POST /api/v1/statuses:
// https://docs.joinmastodon.org/methods/statuses/#create). Lengths and counts are judged by shape.ts,
// with the instance's own limits at publishing (instance.ts).
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, noRules } from '../rules.ts';
import type { NetworkOptions } from '../contract.ts';

const poll = Type.Object({
  options: Type.Array(Type.String({ minLength: 1 }), {
    minItems: 2,
    description: "The poll's choices (`poll[options][]`): 2 to 4 of 50 characters each on a default instance; an instance may allow more (its `configuration.polls`, checked before publishing).",
  }),
  expiresIn: Type.Integer({ minimum: 1, description: 'Seconds the poll stays open (`poll[expires_in]`): 5 minutes to 1 month on a default instance.' }),
  multiple: Type.Optional(Type.Boolean({ description: 'Voters may choose several options (`poll[multiple]`).' })),
  hideTotals: Type.Optional(Type.Boolean({ description: 'Vote counts stay hidden until the poll ends (`poll[hide_totals]`).' })),
}, { description: 'A poll on the root status (Mastodon takes no media beside a poll).' });

const schema = Type.Object({
  content: ContentOverride(),
  spoilerText: Type.Optional(Type.String({ minLength: 1, description: 'A content warning shown in place of the text until the reader opens it (`spoiler_text`), on every status of the post; it counts towards the character limit.' })),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private'), Type.Literal('direct')], {
    description: "Who sees every status of the post: `public`, `unlisted` (not in public timelines), `private` (followers only) or `direct` (the mentioned accounts only). Absent: the account's default.",
  })),
  language: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}$', description: 'The language of the text, an ISO 639 code (`en`, `de`, `fra`).' })),
  sensitive: Type.Optional(Type.Boolean({ description: "Marks the post's media as sensitive (hidden behind a warning)." })),
  poll: Type.Optional(poll),
});

export type MastodonBlock = Static<typeof schema>;
export type MastodonPoll = NonNullable<MastodonBlock['poll']>;

export const options: NetworkOptions = {
  network: 'mastodon',
  schema,
  blockRules: noRules,
  targetRules: noRules,
};
