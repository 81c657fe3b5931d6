// Vimeo block. Its constraints are two enums, so the schema says it all.
import { Type, type Static } from 'typebox';
import { ContentOverride, noRules } from '../rules.ts';
import { StringEnum } from '../../validation/schema.ts';
import type { NetworkOptions } from '../types.ts';

const schema = Type.Object({
  content: ContentOverride(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  privacyView: Type.Optional(StringEnum(['anybody', 'unlisted', 'nobody', 'password', 'contacts', 'users', 'disable'])),
  privacyEmbed: Type.Optional(StringEnum(['public', 'private', 'whitelist'])),
});

export type VimeoBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'vimeo',
  schema,
  blockRules: noRules,
  targetRules: noRules,
};
