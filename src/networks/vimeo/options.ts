// Vimeo block: two enums and free text. Its rules: Vimeo refuses a password view without a password,
// which the block cannot carry; and later containers of a post to a Vimeo account become comments,
// which carry text only. What the root lacks for Vimeo (one video) is refused by the judgement
// (shape.ts), at create as when publishing.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue } from '../rules.ts';
import { StringEnum } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';

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
  blockRules(block) {
    // POST /me/videos: "When you set privacy.view to password, you must provide the password" (vimeo/openapi).
    if (block.privacyView !== 'password') return [];
    return [issue('vimeo.privacyView', 'password needs a password, which the vimeo block cannot carry; '
      + 'choose another view (unlisted, nobody, contacts...) and set the password on Vimeo afterwards')];
  },
  targetRules(_block, ctx) {
    const issues: FieldIssue[] = [];
    ctx.containers.slice(1).forEach((container, i) => {
      if (container.media.length) {
        issues.push(issue(`containers[${i + 1}].media`, 'Vimeo publishes later containers as comments on the video, which carry text only; remove the media'));
      }
      if (!container.content.trim()) {
        issues.push(issue(`containers[${i + 1}].content`, 'Vimeo publishes later containers as comments on the video, and a comment needs text'));
      }
    });
    return issues;
  },
};
