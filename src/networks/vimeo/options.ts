// Vimeo block: two enums and free text. Its rules: Vimeo refuses a password view without a password,
// which the block cannot carry; and a targeted Vimeo account publishes exactly one video (the first
// container's only media) with later containers as comments, which carry text only.
import { Type, type Static } from 'typebox';
import { mediaKind } from '../media-kind.ts';
import { ContentOverride, issue, rootMedia } from '../rules.ts';
import { StringEnum } from '../../validation/schema.ts';
import type { FieldIssue, NetworkOptions } from '../types.ts';

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
    const media = rootMedia(ctx);
    if (media.length !== 1) {
      issues.push(issue('containers[0].media', `Vimeo publishes exactly one video, so the first container needs one video when a Vimeo account is targeted; it has ${media.length} media`));
    } else if (mediaKind(media[0]!.filename) === 'image') {
      issues.push(issue('containers[0].media[0].filename', `Vimeo takes a video, and "${media[0]!.filename}" is an image`));
    }
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
