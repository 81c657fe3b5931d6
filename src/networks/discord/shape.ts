// Discord's judgement: what a webhook cannot send, judged from the post alone. The adapter refuses it
// before any call (prepare), a dry run reports it and shows the post as Discord counts it (measure),
// and the create refuses it. Every container is a message of its own, sent by the webhook (Execute
// Webhook, https://discord.com/developers/docs/resources/webhook#execute-webhook): its content at most
// 2,000 characters, at most 10 files (the description's `attachments` maxItems), and never empty
// (content, an embed or a file). Discord counts characters as Unicode code points.
import type { JudgedWhen, MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { characters, measureText, overLimit, threadOf } from '../measure.ts';
import type { DiscordBlock } from './options.ts';

export const MAX_CONTENT = 2000;
export const MAX_FILES = 10;
export const MAX_THREAD_NAME = 100;

const content = characters(MAX_CONTENT);
const threadName = characters(MAX_THREAD_NAME);

const blockOf = (post: PreflightPost) => (post.block ?? {}) as DiscordBlock;

/** Every container a message in the channel (or the thread), the root with the block's content; a forum post's name as its title. */
export function measure(post: PreflightPost): MeasuredPost {
  const block = blockOf(post);
  const parts = threadOf(post, content).map((part, i) => (i === 0 && block.threadName !== undefined
    ? { ...part, title: measureText(threadName, block.threadName), note: 'a new forum post: later containers are sent in it' }
    : part));
  return { parts, leftOut: 0 };
}

/** Files per message, empty messages, then every text's length. */
export function judge(post: PreflightPost, _when: JudgedWhen = 'publish'): void {
  const block = blockOf(post);
  const { parts } = measure(post);
  post.containers.forEach((container, i) => {
    if (container.media.length > MAX_FILES) throw refused(`container ${i + 1} has ${container.media.length} files; a Discord message takes ${MAX_FILES} at most`);
    const embeds = i === 0 ? block.embeds?.length ?? 0 : 0;
    if (!container.media.length && !embeds && !parts[i]!.text.trim()) throw refused(`container ${i + 1} has neither text, embed nor file; Discord sends no empty message`);
  });
  parts.forEach((part, i) => {
    if (overLimit(part)) throw refused(`container ${i + 1} is ${part.length} characters; a Discord message takes ${MAX_CONTENT}`);
    if (part.title && overLimit(part.title)) throw refused(`the thread name is ${part.title.length} characters; Discord allows ${MAX_THREAD_NAME}`);
  });
}

const refused = (why: string) => new PublishError('permanent', `discord: ${why}`, undefined, 'invalid');
