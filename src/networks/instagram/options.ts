// Instagram block. Stories, Reels and trial reels each accept only one shape of media, and that shape is
// known at request time from the root container, so mismatches are rejected here instead of failing later
// at Meta's container step.
import { Type, type Static } from 'typebox';
import { ContentOverride, issue, isSingleVideo, storyMediaIssues } from '../rules.ts';
import { HttpUrl, StringEnum } from '../../validation/schema.ts';
import type { CreateContext, FieldIssue, NetworkOptions } from '../types.ts';

const schema = Type.Object({
  content: ContentOverride(),
  publishAsStory: Type.Optional(Type.Boolean()),
  locationId: Type.Optional(Type.String()),
  reelThumbOffset: Type.Optional(Type.Number()),
  reelCoverUrl: Type.Optional(HttpUrl()),
  userTags: Type.Optional(Type.Array(Type.Object({
    username: Type.String(),
    x: Type.Number(),
    y: Type.Number(),
  }))),
  altText: Type.Optional(Type.String()),
  caption: Type.Optional(Type.String()),
  collaborators: Type.Optional(Type.Array(Type.String(), { maxItems: 3 })),
  isAiGenerated: Type.Optional(Type.Boolean()),
  trialReel: Type.Optional(Type.Object({
    graduationStrategy: StringEnum(['MANUAL', 'SS_PERFORMANCE']),
  })),
});

export type InstagramBlock = Static<typeof schema>;

/** A Story has no caption from any source: the override, `caption`, or the root container's text. */
function storyIssues(block: InstagramBlock, ctx: CreateContext): FieldIssue[] {
  const issues = storyMediaIssues(ctx, 'An Instagram');
  const noCaption = 'an Instagram Story has no caption; remove it or drop instagram.publishAsStory';
  if (block.content !== undefined) issues.push(issue('instagram.content', noCaption));
  if (block.caption) issues.push(issue('instagram.caption', noCaption));
  // The root text is only Instagram's caption when no override replaces it.
  if (block.content === undefined && !block.caption && ctx.containers[0]?.content) {
    issues.push(issue('containers[0].content', `${noCaption} (post captioned content for other networks in a separate request)`));
  }
  if (block.collaborators?.length) {
    issues.push(issue('instagram.collaborators', 'collaborators are for feed posts and Reels, not Stories; remove them'));
  }
  return issues;
}

export const options: NetworkOptions = {
  network: 'instagram',
  schema,
  check(raw, ctx) {
    const block = (raw ?? {}) as InstagramBlock;
    const story = block.publishAsStory === true;
    const issues = story ? storyIssues(block, ctx) : [];
    // A Reel is a single video that is not a Story; covers and trial reels only exist for Reels.
    const reel = !story && isSingleVideo(ctx);
    if (block.reelCoverUrl !== undefined && !reel) {
      issues.push(issue('instagram.reelCoverUrl', story
        ? 'a Reel cover cannot be used on a Story; remove reelCoverUrl'
        : 'a Reel cover needs exactly one video in the first container (a Reel); remove reelCoverUrl for other posts'));
    }
    if (block.trialReel !== undefined && !reel) {
      issues.push(issue('instagram.trialReel', story
        ? 'trialReel cannot be combined with publishAsStory; remove one of them'
        : 'trialReel needs exactly one video in the first container (published as a Reel), not images or carousels'));
    }
    return issues;
  },
};
