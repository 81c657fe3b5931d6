// Editing a published post's texts (https://core.telegram.org/bots/api#updating-messages): a text
// message's with editMessageText, a message with files' caption with editMessageCaption — for an
// album, its first message, the one that carries the caption (sendMediaGroup puts it there). The new
// text is plain: no parse_mode and no entities, so the formatting a root sent with telegram.content
// and parseMode had is gone after an edit (the method sets the text with the entities given: none).
// link_preview_options is sent again as published (the block's disableLinkPreview), since an edit
// without it sets a text message's preview back to the default.
//
// What a bot may edit: the messages it sent ("messages sent by the bot"; in a channel an
// administrator with can_edit_messages edits others' too). The reference's only time limit is for
// business messages ("business messages that were not sent by the bot and do not contain an inline
// keyboard can only be edited within 48 hours"), which Crier never sends: a post stays editable.
import type { AccountSession } from '../capabilities.ts';
import type { PartRef, PublishedPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { TelegramClient } from './client.ts';
import type { TelegramBlock } from './options.ts';
import { MAX_CAPTION, MAX_TEXT } from './shape.ts';

/** How a message's words are edited: its text (a text message) or its caption (a message with files). */
type Field = 'text' | 'caption';

export async function editPost(apiUrl: string, session: AccountSession, post: PublishedPost, texts: readonly (string | undefined)[]): Promise<void> {
  const token = session.account.credential;
  if (!token) throw new PublishError('auth', 'telegram: no bot token is stored for the account; connect it again');
  const client = new TelegramClient(apiUrl, token);
  const parts = post.parts.length ? post.parts : [post.root];
  const block = post.block as TelegramBlock;
  for (const [i, text] of texts.entries()) {
    const part = parts[i];
    if (text === undefined || !part) continue;
    await editPart(client, session.account.networkUniqueId, part, text, block);
  }
}

async function editPart(client: TelegramClient, chatId: string, part: PartRef, text: string, block: TelegramBlock): Promise<void> {
  const messageId = Number(part.platformId);
  const known = fieldOf(part);
  if (known) return editAs(client, chatId, messageId, known, text, block);
  // A post published before its ref said what it carries: its text first, its caption when Telegram says it has no text.
  try {
    await editAs(client, chatId, messageId, 'text', text, block);
  } catch (error) {
    if (!(error instanceof PublishError && /there is no text in the message to edit/i.test(error.message))) throw error;
    await editAs(client, chatId, messageId, 'caption', text, block);
  }
}

/** From the ref the adapter stored: an album, or a message with its file count. */
function fieldOf(part: PartRef): Field | undefined {
  const ids = part.ref?.messageIds;
  if (Array.isArray(ids) && ids.length > 1) return 'caption';
  const files = part.ref?.files;
  return typeof files === 'number' ? (files > 0 ? 'caption' : 'text') : undefined;
}

/** One call; "message is not modified" (the same text) is success: there is nothing to change. */
async function editAs(client: TelegramClient, chatId: string, messageId: number, field: Field, text: string, block: TelegramBlock): Promise<void> {
  checkLength(field, text);
  const params = field === 'text'
    ? { chat_id: chatId, message_id: messageId, text, link_preview_options: block.disableLinkPreview ? { is_disabled: true } : undefined }
    : { chat_id: chatId, message_id: messageId, caption: text };
  try {
    await client.call(field === 'text' ? 'editMessageText' : 'editMessageCaption', params);
  } catch (error) {
    if (error instanceof PublishError && /message is not modified/i.test(error.message)) return;
    if (error instanceof PublishError && /message can't be edited/i.test(error.message)) {
      throw new PublishError('permanent', `${error.message} (a bot edits only the messages it sent, in a chat where it still may post)`, undefined, 'forbidden');
    }
    throw error;
  }
}

/** The publish limits (shape.ts), in UTF-16 code units; a plain text has no markup to leave out. */
function checkLength(field: Field, text: string): void {
  if (field === 'text' && !text.trim()) throw invalid('a text message cannot be edited to an empty text; Telegram sends no empty message');
  const limit = field === 'text' ? MAX_TEXT : MAX_CAPTION;
  if (text.length > limit) throw invalid(`the new text is ${text.length} characters as Telegram counts them (UTF-16 code units); Telegram allows ${limit} in ${field === 'text' ? 'a message' : 'a caption (a text with media)'}`);
}

const invalid = (why: string) => new PublishError('permanent', `telegram: ${why}`, undefined, 'invalid');
