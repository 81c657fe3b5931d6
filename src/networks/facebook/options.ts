// Facebook block. Stories, Reels and video covers need a specific root media shape, and mentions are
// applied in comment containers, so each is checked against the containers when a Page is targeted.
// What a Story cannot be combined with in the block itself is refused whatever is targeted. The spec
// wants every conflict rejected rather than silently dropped (a Story with text would otherwise lose it).
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, isSingleVideo, rootText, storyMediaIssues } from '../rules.ts';
import { FetchedUrl } from '../../validation/schema.ts';
import { NETWORKS } from '../ids.ts';
import type { NetworkOptions } from '../contract.ts';
import type { TargetContext } from '../../core/post.ts';
import { type FieldIssue } from '../../core/errors.ts';

const schema = Type.Object({
  content: ContentOverride(),
  // The spec allows ^https?:// here; https only, like every URL something fetches (see README).
  videoCoverUrl: Type.Optional(FetchedUrl()),
  mentions: Type.Optional(Type.Array(Type.Object({
    pageId: Type.String({ minLength: 1 }),
    text: Type.String({ minLength: 1 }),
  }))),
  publishAsStory: Type.Optional(Type.Boolean()),
  publishAsReel: Type.Optional(Type.Boolean()),
});

export type FacebookBlock = Static<typeof schema>;

/** Other targeted networks that would publish text (an override, a caption, or the shared root text). */
function captionedOthers(ctx: TargetContext): string[] {
  return NETWORKS.filter((network) => network !== 'facebook' && ctx.targetNetworks.has(network)
    && (rootText(network, ctx) !== '' || Boolean(ctx.blocks[network]?.caption)));
}

const NO_STORY_TEXT = 'a Facebook Story has no caption; remove the text or drop facebook.publishAsStory';

/** What a Story cannot be combined with in the block itself: its own text, mentions, a Reel, a video cover. */
function storyBlockIssues(block: FacebookBlock): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (block.content !== undefined) issues.push(issue('facebook.content', NO_STORY_TEXT));
  if (block.mentions?.length) {
    issues.push(issue('facebook.mentions', 'mentions cannot be used on a Facebook Story; remove them or drop publishAsStory'));
  }
  if (block.publishAsReel) {
    issues.push(issue('facebook.publishAsReel', 'publishAsReel cannot be combined with publishAsStory; set only one'));
  }
  if (block.videoCoverUrl !== undefined) issues.push(issue('facebook.videoCoverUrl', 'a video cover cannot be used on a Story; remove videoCoverUrl'));
  return issues;
}

/** What a targeted Story needs of the shared content and of the other targets. */
function storyContentIssues(block: FacebookBlock, ctx: TargetContext): FieldIssue[] {
  const issues = storyMediaIssues(ctx, 'A Facebook');
  if (block.content === undefined && ctx.containers[0]?.content) issues.push(issue('containers[0].content', NO_STORY_TEXT));
  ctx.containers.slice(1).forEach((_, i) => issues.push(issue(`containers[${i + 1}]`,
    'a Facebook Story cannot have comments; remove the comment containers or drop facebook.publishAsStory')));
  const others = captionedOthers(ctx);
  if (others.length > 0) {
    issues.push(issue('facebook.publishAsStory', `a Facebook Story cannot be cross-posted with captioned content for `
      + `${others.join(', ')}; publish the Story in its own request`));
  }
  return issues;
}

/** Each mention must be anchored in a comment container (containers[1+]) by its exact text. */
function mentionIssues(block: FacebookBlock, ctx: TargetContext): FieldIssue[] {
  const comments = ctx.containers.slice(1);
  return (block.mentions ?? []).flatMap((mention, i) =>
    comments.some((container) => container.content.includes(mention.text)) ? [] : [issue(`facebook.mentions[${i}].text`,
      `"${mention.text}" does not appear in any comment container (containers[1] onwards); Facebook mentions are `
      + 'applied in comments, so add a comment container whose content contains this exact text')]);
}

/** A post (not a Story) on a targeted Page: mentions anchored in comments; Reels and video covers need one video. */
function postContentIssues(block: FacebookBlock, ctx: TargetContext): FieldIssue[] {
  const issues = mentionIssues(block, ctx);
  if (block.publishAsReel && !isSingleVideo(ctx)) {
    issues.push(issue('containers[0].media', 'publishAsReel needs exactly one video in the first container'));
  }
  if (block.videoCoverUrl !== undefined && !isSingleVideo(ctx)) {
    issues.push(issue('facebook.videoCoverUrl', 'videoCoverUrl needs exactly one video in the first container; remove it for other posts'));
  }
  return issues;
}

export const options: NetworkOptions = {
  network: 'facebook',
  schema,
  blockRules(raw) {
    const block = raw as FacebookBlock;
    return block.publishAsStory === true ? storyBlockIssues(block) : [];
  },
  targetRules(raw, ctx) {
    const block = (raw ?? {}) as FacebookBlock;
    return block.publishAsStory === true ? storyContentIssues(block, ctx) : postContentIssues(block, ctx);
  },
};
