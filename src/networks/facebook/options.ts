// Facebook block. Stories, Reels and video covers need a specific root media shape, and mentions are
// applied in comment containers, so each is checked against the containers here. The spec wants every
// conflict rejected rather than silently dropped (a Story with text would otherwise lose it).
import { Type, type Static } from 'typebox';
import { ContentOverride, issue, isSingleVideo, rootText, storyMediaIssues } from '../rules.ts';
import { HttpUrl } from '../../validation/schema.ts';
import { NETWORKS, type CreateContext, type FieldIssue, type NetworkOptions } from '../types.ts';

const schema = Type.Object({
  content: ContentOverride(),
  videoCoverUrl: Type.Optional(HttpUrl()),
  mentions: Type.Optional(Type.Array(Type.Object({
    pageId: Type.String({ minLength: 1 }),
    text: Type.String({ minLength: 1 }),
  }))),
  publishAsStory: Type.Optional(Type.Boolean()),
  publishAsReel: Type.Optional(Type.Boolean()),
});

export type FacebookBlock = Static<typeof schema>;

/** Other targeted networks that would publish text (an override, a caption, or the shared root text). */
function captionedOthers(ctx: CreateContext): string[] {
  return NETWORKS.filter((network) => network !== 'facebook' && ctx.targetNetworks.has(network)
    && (rootText(network, ctx) !== '' || Boolean(ctx.blocks[network]?.caption)));
}

function storyIssues(block: FacebookBlock, ctx: CreateContext): FieldIssue[] {
  const issues = storyMediaIssues(ctx, 'A Facebook');
  const noText = 'a Facebook Story has no caption; remove the text or drop facebook.publishAsStory';
  if (block.content !== undefined) issues.push(issue('facebook.content', noText));
  else if (ctx.containers[0]?.content) issues.push(issue('containers[0].content', noText));
  ctx.containers.slice(1).forEach((_, i) => issues.push(issue(`containers[${i + 1}]`,
    'a Facebook Story cannot have comments; remove the comment containers or drop facebook.publishAsStory')));
  if (block.mentions?.length) {
    issues.push(issue('facebook.mentions', 'mentions cannot be used on a Facebook Story; remove them or drop publishAsStory'));
  }
  if (block.publishAsReel) {
    issues.push(issue('facebook.publishAsReel', 'publishAsReel cannot be combined with publishAsStory; set only one'));
  }
  const others = captionedOthers(ctx);
  if (others.length > 0) {
    issues.push(issue('facebook.publishAsStory', `a Facebook Story cannot be cross-posted with captioned content for `
      + `${others.join(', ')}; publish the Story in its own request`));
  }
  return issues;
}

/** Each mention must be anchored in a comment container (containers[1+]) by its exact text. */
function mentionIssues(block: FacebookBlock, ctx: CreateContext): FieldIssue[] {
  const comments = ctx.containers.slice(1);
  return (block.mentions ?? []).flatMap((mention, i) =>
    comments.some((container) => container.content.includes(mention.text)) ? [] : [issue(`facebook.mentions[${i}].text`,
      `"${mention.text}" does not appear in any comment container (containers[1] onwards); Facebook mentions are `
      + 'applied in comments, so add a comment container whose content contains this exact text')]);
}

export const options: NetworkOptions = {
  network: 'facebook',
  schema,
  check(raw, ctx) {
    const block = (raw ?? {}) as FacebookBlock;
    const story = block.publishAsStory === true;
    const issues = story ? storyIssues(block, ctx) : mentionIssues(block, ctx);
    if (block.publishAsReel && !story && !isSingleVideo(ctx)) {
      issues.push(issue('containers[0].media', 'publishAsReel needs exactly one video in the first container'));
    }
    if (block.videoCoverUrl !== undefined) {
      if (story) issues.push(issue('facebook.videoCoverUrl', 'a video cover cannot be used on a Story; remove videoCoverUrl'));
      else if (!isSingleVideo(ctx)) {
        issues.push(issue('facebook.videoCoverUrl', 'videoCoverUrl needs exactly one video in the first container; remove it for other posts'));
      }
    }
    return issues;
  },
};
