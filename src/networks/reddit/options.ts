// Reddit block. Every submission needs a subreddit and a title: the schema requires both in any Reddit
// block, and the target rule when a Reddit account is targeted with no block. Crier publishes only text
// and link posts to Reddit (media posts need Reddit's undocumented upload flow), so a targeted Reddit
// account refuses containers with media.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, noRules } from '../rules.ts';
import { HttpUrl } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';

const schema = Type.Object({
  content: ContentOverride(),
  subreddit: Type.String({
    minLength: 1,
    pattern: '^[^/\\s]*$',
    description: 'a subreddit name without the r/ prefix, such as "typescript" (or "u_<username>" for your profile)',
  }),
  title: Type.String({ minLength: 1, maxLength: 300 }),
  url: Type.Optional(HttpUrl()),
  flairId: Type.Optional(Type.String()),
  flairText: Type.Optional(Type.String({ maxLength: 64 })),
  nsfw: Type.Optional(Type.Boolean()),
  spoiler: Type.Optional(Type.Boolean()),
  sendReplies: Type.Optional(Type.Boolean()),
});

export type RedditBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'reddit',
  schema,
  blockRules: noRules,
  targetRules(block, ctx) {
    const issues: FieldIssue[] = [];
    if (block === undefined) {
      issues.push(issue('reddit.subreddit', 'is required when a Reddit account is targeted; name the subreddit without r/ (or u_<username>)'));
      issues.push(issue('reddit.title', 'is required when a Reddit account is targeted; give the post title (1-300 characters)'));
    }
    ctx.containers.forEach((container, i) => {
      if (container.media.length > 0) {
        issues.push(issue(`containers[${i}].media`, 'Reddit accepts only text and link posts, so no container may carry media '
          + 'when a Reddit account is targeted; remove the media or post to Reddit in a separate request'));
      }
    });
    return issues;
  },
};
