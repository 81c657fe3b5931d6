// Instagram block. Stories, Reels and trial reels each accept only one shape of media, and that shape is
// known at request time from the root container, so mismatches are rejected here instead of failing later
// at Meta's container step. What a Story cannot carry in the block is refused whatever is targeted; the
// shape of the shared containers only matters when an Instagram account is targeted.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, isSingleVideo, storyMediaIssues } from '../rules.ts';
import { FetchedUrl, StringEnum } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';
import type { TargetContext } from '../../core/post.ts';

const schema = Type.Object({
  content: ContentOverride(),
  publishAsStory: Type.Optional(Type.Boolean()),
  locationId: Type.Optional(Type.String()),
  reelThumbOffset: Type.Optional(Type.Number()),
  reelCoverUrl: Type.Optional(FetchedUrl()),
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

/**
 * What a Story cannot be combined with in the block itself: a caption (`content` or `caption`),
 * collaborators, a Reel cover or a trial reel.
 */
function storyBlockIssues(block: InstagramBlock): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const noCaption = 'an Instagram Story has no caption; remove it or drop instagram.publishAsStory';
  if (block.content !== undefined) issues.push(issue('instagram.content', noCaption));
  if (block.caption) issues.push(issue('instagram.caption', noCaption));
  if (block.collaborators?.length) {
    issues.push(issue('instagram.collaborators', 'collaborators are for feed posts and Reels, not Stories; remove them'));
  }
  if (block.reelCoverUrl !== undefined) issues.push(issue('instagram.reelCoverUrl', 'a Reel cover cannot be used on a Story; remove reelCoverUrl'));
  if (block.trialReel !== undefined) issues.push(issue('instagram.trialReel', 'trialReel cannot be combined with publishAsStory; remove one of them'));
  return issues;
}

/** What a targeted Story needs of the shared content: one image or video, and no root text as its caption. */
function storyContentIssues(block: InstagramBlock, ctx: TargetContext): FieldIssue[] {
  const issues = storyMediaIssues(ctx, 'An Instagram');
  // The root text is only Instagram's caption when no override replaces it.
  if (block.content === undefined && !block.caption && ctx.containers[0]?.content) {
    issues.push(issue('containers[0].content', 'an Instagram Story has no caption; remove it or drop instagram.publishAsStory '
      + '(post captioned content for other networks in a separate request)'));
  }
  return issues;
}

/** A Reel is a single video that is not a Story; covers and trial reels only exist for Reels. */
function reelIssues(block: InstagramBlock, ctx: TargetContext): FieldIssue[] {
  if (isSingleVideo(ctx)) return [];
  const issues: FieldIssue[] = [];
  if (block.reelCoverUrl !== undefined) {
    issues.push(issue('instagram.reelCoverUrl', 'a Reel cover needs exactly one video in the first container (a Reel); remove reelCoverUrl for other posts'));
  }
  if (block.trialReel !== undefined) {
    issues.push(issue('instagram.trialReel', 'trialReel needs exactly one video in the first container (published as a Reel), not images or carousels'));
  }
  return issues;
}

export const options: NetworkOptions = {
  network: 'instagram',
  schema,
  blockRules(raw) {
    const block = raw as InstagramBlock;
    return block.publishAsStory === true ? storyBlockIssues(block) : [];
  },
  targetRules(raw, ctx) {
    const block = (raw ?? {}) as InstagramBlock;
    return block.publishAsStory === true ? storyContentIssues(block, ctx) : reelIssues(block, ctx);
  },
  examples: {
    instagramCarousel: {
      summary: 'An Instagram carousel: 2 to 10 images or videos by URL (upload them with POST /v1/media/upload first)',
      value: {
        accounts: ['my_instagram'],
        containers: [
          {
            content: 'Three looks from the new collection',
            media: [
              { url: 'https://crier.example.com/media/abc123/look-1.jpg', filename: 'look-1.jpg' },
              { url: 'https://crier.example.com/media/abc123/look-2.jpg', filename: 'look-2.jpg' },
              { url: 'https://crier.example.com/media/abc123/look-3.jpg', filename: 'look-3.jpg' },
            ],
          },
        ],
        instagram: { altText: 'Three outfits on a rack' },
      },
    },
  },
};
