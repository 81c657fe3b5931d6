// The telegram block: a text for the root, how Telegram reads that text (parse mode), and the
// delivery switches of every message of the post (Bot API sendMessage and the send* methods:
// https://core.telegram.org/bots/api#sendmessage). Markup and lengths are judged by shape.ts.
import { Type, type Static } from '../../validation/json-schema.ts';
import { ContentOverride, noRules } from '../rules.ts';
import type { NetworkOptions } from '../contract.ts';

const schema = Type.Object({
  content: ContentOverride(),
  parseMode: Type.Optional(Type.Union([Type.Literal('HTML'), Type.Literal('MarkdownV2')], {
    description: "How Telegram reads `telegram.content` (its `parse_mode`): Telegram's HTML or MarkdownV2 markup, which must then be well formed "
      + '(https://core.telegram.org/bots/api#formatting-options). The shared texts (the containers\' content) are always sent as plain text; '
      + 'without `telegram.content` this field is ignored with a warning.',
  })),
  disableNotification: Type.Optional(Type.Boolean({ description: 'Sends the messages silently: subscribers get a notification with no sound (`disable_notification`).' })),
  protectContent: Type.Optional(Type.Boolean({ description: 'Protects the messages from forwarding and saving (`protect_content`).' })),
  disableLinkPreview: Type.Optional(Type.Boolean({ description: 'No preview of the first link of a text message (`link_preview_options.is_disabled`).' })),
});

export type TelegramBlock = Static<typeof schema>;

export const options: NetworkOptions = {
  network: 'telegram',
  schema,
  blockRules: noRules,
  targetRules: noRules,
};
