// YouTube block. Everything it constrains fits in the schema; thumbnails are checked when publishing
// (downloaded then), so there are no request-time rules beyond it.
import { Type, type Static } from 'typebox';
import { ContentOverride, noRules } from '../rules.ts';
import { FetchedUrl, StringEnum } from '../../validation/schema.ts';
import type { NetworkOptions } from '../types.ts';

const schema = Type.Object({
  content: ContentOverride(),
  isShort: Type.Optional(Type.Boolean()),
  categoryId: Type.Optional(Type.String()),
  privacyStatus: Type.Optional(StringEnum(['public', 'private', 'unlisted'])),
  madeForKids: Type.Optional(Type.Boolean()),
  containsSyntheticMedia: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Array(Type.String())),
  title: Type.Optional(Type.String()),
  thumbnailUrl: Type.Optional(FetchedUrl()),
});

export type YoutubeBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'youtube',
  schema,
  blockRules: noRules,
  targetRules: noRules,
};
