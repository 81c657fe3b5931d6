// YouTube block. The schema holds the types; the rules hold YouTube's limits on what they become
// (metadata.ts): the title (1-100 characters, no < or >), the tags (500 characters in all), the
// description (the block's content or the root text: 5,000 bytes, no < or >). A YouTube post is one
// video in the first container; later containers become comments on it, text only. The thumbnail
// is judged when publishing (downloaded then, before the upload).
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, issue, rootText } from '../rules.ts';
import { FetchedUrl, StringEnum } from '../../validation/schema.ts';
import type { FieldIssue } from '../../core/errors.ts';
import type { NetworkOptions } from '../contract.ts';
import type { PostContent } from '../../core/post.ts';
import { descriptionProblem, TAGS_MAX, tagsLength, titleProblem } from './metadata.ts';

const schema = Type.Object({
  content: ContentOverride(),
  isShort: Type.Optional(Type.Boolean()),
  categoryId: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'a YouTube video category id such as "22" (People & Blogs)' })),
  privacyStatus: Type.Optional(StringEnum(['public', 'private', 'unlisted'])),
  madeForKids: Type.Optional(Type.Boolean()),
  containsSyntheticMedia: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  title: Type.Optional(Type.String()),
  thumbnailUrl: Type.Optional(FetchedUrl()),
});

export type YoutubeBlock = Static<typeof schema>;

function blockRules(block: Record<string, unknown>): FieldIssue[] {
  const { title, tags } = block as YoutubeBlock;
  const issues: FieldIssue[] = [];
  const problem = title === undefined ? undefined : titleProblem(title);
  if (problem) issues.push(issue('youtube.title', problem));
  if (tags && tagsLength(tags) > TAGS_MAX) {
    issues.push(issue('youtube.tags', `count ${tagsLength(tags)} characters as YouTube counts them (commas between tags, quotes around tags with spaces); YouTube takes up to ${TAGS_MAX}`));
  }
  return issues;
}

function targetRules(_block: Record<string, unknown> | undefined, ctx: PostContent): FieldIssue[] {
  // A root without its one video is refused by the judgement (shape.ts), at create as when publishing.
  const issues: FieldIssue[] = [];
  const description = descriptionProblem(rootText('youtube', ctx));
  if (description) issues.push(issue(ctx.blocks.youtube?.content !== undefined ? 'youtube.content' : 'containers[0].content', `becomes the video description and ${description}`));
  ctx.containers.slice(1).forEach((container, i) => {
    if (container.media.length) issues.push(issue(`containers[${i + 1}].media`, 'later containers become comments on the YouTube video, which carry text only'));
    if (!container.content.trim()) issues.push(issue(`containers[${i + 1}].content`, 'later containers become comments on the YouTube video and need text'));
  });
  return issues;
}

export const options: NetworkOptions = { network: 'youtube', schema, blockRules, targetRules };
