// TikTok block. Title and description limits are in UTF-16 code units (JS `string.length`), which JSON
// Schema's maxLength cannot express (it counts code points), so they are checked here.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, noRules } from '../rules.ts';
import { StringEnum } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';

const schema = Type.Object({
  content: ContentOverride(),
  postMode: Type.Optional(StringEnum(['DIRECT_POST', 'MEDIA_UPLOAD'])),
  privacyLevel: Type.Optional(StringEnum(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'])),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  disableComment: Type.Optional(Type.Boolean()),
  disableDuet: Type.Optional(Type.Boolean()),
  disableStitch: Type.Optional(Type.Boolean()),
  videoCoverTimestampMs: Type.Optional(Type.Integer({ minimum: 0 })),
  autoAddMusic: Type.Optional(Type.Boolean()),
  brandContentToggle: Type.Optional(Type.Boolean()),
  brandOrganicToggle: Type.Optional(Type.Boolean()),
  isAigc: Type.Optional(Type.Boolean()),
});

export type TiktokBlock = Static<typeof schema>;

export const TIKTOK_TITLE_MAX = 90;
export const TIKTOK_DESCRIPTION_MAX = 4000;

function tooLong(field: string, value: string | undefined, max: number): FieldIssue[] {
  if (value === undefined || value.length <= max) return [];
  return [issue(field, `is ${value.length} UTF-16 code units long but TikTok allows at most ${max} `
    + '(emoji and other characters outside the BMP count 2); shorten it')];
}

export const options: NetworkOptions = {
  network: 'tiktok',
  schema,
  blockRules(raw) {
    const block = raw as TiktokBlock;
    const issues = [
      ...tooLong('tiktok.title', block.title, TIKTOK_TITLE_MAX),
      ...tooLong('tiktok.description', block.description, TIKTOK_DESCRIPTION_MAX),
    ];
    // TikTok has no default privacy for direct posts: the creator must choose one.
    if (block.postMode === 'DIRECT_POST' && block.privacyLevel === undefined) {
      issues.push(issue('tiktok.privacyLevel', 'is required when postMode is DIRECT_POST; choose one of '
        + 'PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY (or use postMode MEDIA_UPLOAD)'));
    }
    return issues;
  },
  targetRules: noRules,
};
