// The Bot API's objects as the methods return them: User (https://core.telegram.org/bots/api#user),
// ChatFullInfo (#chatfullinfo), Chat (#chat), ChatMember (#chatmember), Message (#message) with its
// PhotoSize (#photosize), Video (#video), Document (#document) and MessageEntity (#messageentity).
import type { Bot, Chat, Member, StoredFile, StoredMessage } from '../state.ts';

export const userOf = (bot: Bot) => ({
  id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username,
  can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false, can_connect_to_business: false, has_main_web_app: false,
});

const chatOf = (chat: Chat) => ({ id: chat.id, type: chat.type, title: chat.title, ...(chat.username ? { username: chat.username } : {}) });

/** ChatFullInfo: the Chat fields and those getChat adds (accent_color_id and max_reaction_count are always there). */
export const chatFullInfo = (chat: Chat) => ({ ...chatOf(chat), accent_color_id: 0, max_reaction_count: 11 });

const ADMIN_RIGHTS = ['can_manage_chat', 'can_delete_messages', 'can_manage_video_chats', 'can_restrict_members', 'can_promote_members', 'can_change_info', 'can_invite_users', 'can_post_stories', 'can_edit_stories', 'can_delete_stories'];
const CHANNEL_RIGHTS = ['can_post_messages', 'can_edit_messages'];
const GROUP_RIGHTS = ['can_pin_messages'];

/** ChatMemberOwner, ChatMemberAdministrator, ChatMemberMember, ChatMemberLeft or ChatMemberBanned ("kicked"). */
export function chatMemberOf(bot: Bot, member: Member | undefined, chat?: Chat) {
  const user = userOf(bot);
  if (!member || member.status === 'left') return { status: 'left', user };
  if (member.status === 'kicked') return { status: 'kicked', user, until_date: 0 };
  if (member.status === 'creator') return { status: 'creator', user, is_anonymous: false };
  if (member.status !== 'administrator') return { status: member.status, user };
  const rights = [...ADMIN_RIGHTS, ...(chat?.type === 'channel' ? CHANNEL_RIGHTS : chat ? GROUP_RIGHTS : [...CHANNEL_RIGHTS])];
  return { status: 'administrator', user, can_be_edited: false, is_anonymous: false, ...Object.fromEntries(rights.map((right) => [right, member.rights[right] === true])) };
}

function fileOf(file: StoredFile) {
  const common = { file_id: file.fileId, file_unique_id: file.fileUniqueId, file_size: file.size };
  if (file.kind === 'photo') {
    const width = file.width ?? 1280;
    const height = file.height ?? 1280;
    const scale = Math.min(1, 320 / Math.max(width, height));
    // A photo comes as its sizes, smallest first: a thumbnail and the photo itself.
    return [{ ...common, file_id: `${file.fileId}-s`, file_unique_id: `${file.fileUniqueId}-s`, width: Math.round(width * scale), height: Math.round(height * scale) }, { ...common, width, height }];
  }
  if (file.kind === 'video') return { ...common, width: file.width ?? 0, height: file.height ?? 0, duration: 0, mime_type: file.mime, ...(file.fileName ? { file_name: file.fileName } : {}) };
  return { ...common, mime_type: file.mime, ...(file.fileName ? { file_name: file.fileName } : {}) };
}

/** A Message in `chat`: a channel's post is signed by the channel (sender_chat), a group's by the bot (from). */
export function messageOf(chat: Chat, message: StoredMessage, bot: Bot, withReply = true): Record<string, unknown> {
  const replied = message.replyTo === undefined ? undefined : chat.messages.get(message.replyTo);
  const textField = message.text !== undefined ? { text: message.text, ...(message.entities.length ? { entities: message.entities } : {}) }
    : message.caption !== undefined ? { caption: message.caption, ...(message.entities.length ? { caption_entities: message.entities } : {}) } : {};
  return {
    message_id: message.messageId,
    ...(chat.type === 'channel' ? { sender_chat: chatOf(chat) } : { from: userOf(bot) }),
    date: message.date,
    chat: chatOf(chat),
    ...(message.editDate ? { edit_date: message.editDate } : {}),
    ...(message.mediaGroupId ? { media_group_id: message.mediaGroupId } : {}),
    ...(message.protectContent ? { has_protected_content: true } : {}),
    ...(withReply && replied ? { reply_to_message: messageOf(chat, replied, bot, false) } : {}),
    ...textField,
    ...(message.linkPreviewDisabled ? { link_preview_options: { is_disabled: true } } : {}),
    ...(message.file ? { [message.file.kind]: fileOf(message.file) } : {}),
  };
}
