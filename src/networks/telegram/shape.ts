// Telegram's judgement: what the Bot API cannot send, judged from the post alone. The adapter refuses
// it before any call (prepare), a dry run reports it and shows the post as Telegram counts it
// (measure), and the create refuses it. Every container is a message of its own (a thread: each later
// one replies to the one before), sent as the Bot API has it
// (https://core.telegram.org/bots/api#available-methods):
//  - no media: sendMessage, its text 1-4,096 characters after entities parsing;
//  - one file: sendPhoto, sendVideo or sendDocument, its caption 0-1,024 characters after parsing;
//  - 2 to 10 files: sendMediaGroup (photos and videos mixed, or documents only), the caption on the first.
// Telegram counts those characters in UTF-16 code units (MessageEntity: "offset in UTF-16 code units";
// https://core.telegram.org/api/entities), once the markup of the parse mode is gone (markup.ts).
import type { JudgedWhen, MeasuredPart, MeasuredPost } from '../contract.ts';
import type { ContainerInput, PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { mediaOf, overLimit, rootTextOf } from '../measure.ts';
import { visibleText, type ParseMode } from './markup.ts';
import type { TelegramBlock } from './options.ts';

export const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;
/** sendMediaGroup: "an array describing messages to be sent, must include 2-10 items". */
export const MAX_ALBUM = 10;

/** How Telegram receives a file: as a photo, a video (MPEG-4, which its clients play) or a document (anything else). */
export type FileKind = 'photo' | 'video' | 'document';

const PHOTO_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'm4v']);

/** sendVideo: "Telegram clients support MPEG4 videos (other formats may be sent as Document)"; a GIF or HEIC image is a document too. */
export function fileKindOf(filename: string): FileKind {
  if (!filename.includes('.')) return 'document';
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  if (PHOTO_EXTENSIONS.has(extension)) return 'photo';
  return VIDEO_EXTENSIONS.has(extension) ? 'video' : 'document';
}

/** The text each container is sent with: the root's is the block's `content` when set. */
export const textsOf = (post: PreflightPost): string[] => post.containers.map((container, i) => (i === 0 ? rootTextOf(post) : container.content));

/**
 * How Telegram reads each container's text: the parse mode applies to the block's own `content` (the
 * root's Telegram text); every shared text, written for every network, is plain (no parse_mode), so
 * nothing in it is markup and nothing needs escaping.
 */
export function parseModesOf(post: PreflightPost): (ParseMode | undefined)[] {
  const block = post.block as TelegramBlock | undefined;
  const own = typeof block?.content === 'string' ? block.parseMode : undefined;
  return post.containers.map((_, i) => (i === 0 ? own : undefined));
}

const utf16 = (text: string) => text.length;

/** Every container a message of the thread, its text counted as Telegram counts it (a caption's limit when it carries files). */
export function measure(post: PreflightPost): MeasuredPost {
  const modes = parseModesOf(post);
  const texts = textsOf(post);
  return { parts: post.containers.map((container, i) => partOf(container, texts[i]!, modes[i], i === 0)), leftOut: 0 };
}

function partOf(container: ContainerInput, text: string, mode: ParseMode | undefined, root: boolean): MeasuredPart {
  const parsed = visibleText(text, mode);
  const files = container.media.length;
  return {
    role: root ? 'post' : 'reply',
    text,
    length: utf16(parsed.text ?? text),
    limit: files ? MAX_CAPTION : MAX_TEXT,
    unit: 'utf16',
    media: mediaOf(container),
    ...(parsed.error ? { note: `Telegram cannot read its ${mode} markup: ${parsed.error}` }
      : files > 1 ? { note: 'an album: the text is the caption of its first file' }
        : mode && parsed.text !== text ? { note: `counted without its ${mode} markup, as Telegram counts` } : {}),
  };
}

/** Files per container and how they group, then each text's markup and length. */
export function judge(post: PreflightPost, _when: JudgedWhen = 'publish'): void {
  const modes = parseModesOf(post);
  const texts = textsOf(post);
  post.containers.forEach((container, i) => {
    const mode = modes[i];
    const kinds = container.media.map((m) => fileKindOf(m.filename));
    if (kinds.length > MAX_ALBUM) throw refused(`container ${i + 1} has ${kinds.length} files; a Telegram album takes ${MAX_ALBUM} at most`);
    if (kinds.length > 1 && kinds.includes('document') && kinds.some((kind) => kind !== 'document')) {
      throw refused(`container ${i + 1} mixes documents with photos or videos; a Telegram album groups documents only with documents`);
    }
    if (!kinds.length && !texts[i]!.trim()) throw refused(`container ${i + 1} has neither text nor media; Telegram sends no empty message`);
    const parsed = visibleText(texts[i]!, mode);
    if (parsed.error) throw refused(`container ${i + 1}'s ${mode} markup cannot be read by Telegram: ${parsed.error}`);
    if (!kinds.length && !(parsed.text ?? '').trim()) throw refused(`container ${i + 1} has no text once its ${mode} markup is read; Telegram sends no empty message`);
  });
  measure(post).parts.forEach((part, i) => {
    if (!overLimit(part)) return;
    const what = part.limit === MAX_CAPTION ? 'a caption (a text with media)' : 'a message';
    throw refused(`container ${i + 1} is ${part.length} characters as Telegram counts them (UTF-16 code units, markup left out); Telegram allows ${part.limit} in ${what}`);
  });
}

/**
 * Block fields that do nothing for this post: a parse mode without the block's own `content` (the
 * shared texts are plain), a link preview switch on a post with no text message.
 */
export function ignoredFields(post: PreflightPost): { field: string; why: string }[] {
  const block = post.block as TelegramBlock | undefined;
  const ignored: { field: string; why: string }[] = [];
  if (block?.parseMode !== undefined && typeof block.content !== 'string') {
    ignored.push({ field: 'parseMode', why: 'it applies to telegram.content, which this post does not set; the shared texts are sent as plain text' });
  }
  if (block?.disableLinkPreview !== undefined && post.containers.every((container) => container.media.length)) {
    ignored.push({ field: 'disableLinkPreview', why: 'every message of this post carries files, and Telegram shows link previews only under text messages' });
  }
  return ignored;
}

const refused = (why: string) => new PublishError('permanent', `telegram: ${why}`, undefined, 'invalid');
