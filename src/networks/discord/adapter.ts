// Publishing through a channel webhook: every container is a message the webhook sends (Execute
// Webhook with `wait=true`, so Discord answers the message and Crier learns its id). A webhook cannot
// reply (its body has no `message_reference`: IncomingWebhookRequestPartial in the vendored
// description), so a Crier thread is its messages in order in one place: the channel; the existing
// thread `threadId` names; or, with `threadName` in a forum or media channel, the forum post the root
// creates, every later container sent into it (`thread_id`). Files are uploaded in the multipart body
// (`payload_json` and `files[n]`), streamed from `input.openMedia`, each with its alt text as the
// attachment's description. Webhooks have no idempotency key and cannot list a channel's messages,
// so a crash between a send and its record cannot be reconciled: reconcile says it cannot tell.
// A bot account (a token with its channel, account.ts) publishes through bot-publish.ts, with the
// same message body and files.
import type { PartRef } from '../../core/post.ts';
import type { NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import { reconcileErrors } from '../errors.ts';
import { requireAccountKey } from './account.ts';
import { prepareBot } from './bot-publish.ts';
import { DiscordClient, type Upload } from './client.ts';
import { MAX_FILE_BYTES } from './media.ts';
import { messagePayload, refOf, uploadsOf, withoutUndefined } from './message.ts';
import type { DiscordBlock } from './options.ts';
import { judge } from './shape.ts';

const { cannotTell } = reconcileErrors('discord', 'the channel');

export interface DiscordAdapterOptions {
  /** Discord's origin, or the emulator's (CRIER_DISCORD_BASE_URL). */
  origin: string;
  /** The configured base URL, which webhook URLs then name instead of Discord's hosts. */
  configured: string | undefined;
  /** The most bytes a file may have (Discord's default upload limit). */
  maxFileBytes?: number;
}

export function createDiscordAdapter(options: DiscordAdapterOptions): NetworkAdapter {
  return {
    network: 'discord',
    async prepare(input) {
      const key = requireAccountKey(input.account.credential, options.configured);
      judge(input);
      const maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
      if (key.kind === 'bot') return prepareBot(options.origin, key.bot, input, maxFileBytes);
      const client = new DiscordClient(options.origin, key.webhook);
      const webhook = await client.webhook();
      return preparedFor(client, input, webhook.guild_id ?? undefined, maxFileBytes);
    },
  };
}

function preparedFor(client: DiscordClient, input: PublishInput, guildId: string | undefined, maxFileBytes: number): PreparedPublish {
  const block = (input.block ?? {}) as DiscordBlock;

  /** The webhook's payload: the message's, then the name and avatar it shows, and the forum post the root opens. */
  const payloadOf = (position: number, uploads: Upload[]): Record<string, unknown> => withoutUndefined({
    ...messagePayload(input, position, uploads),
    username: block.username,
    avatar_url: block.avatarUrl,
    thread_name: position === 0 ? block.threadName : undefined,
  });

  /** Where a message goes: the thread the block names, the forum post the root opened, else the channel. */
  const threadFor = (root: PartRef | undefined): string | undefined => (root ? (root.ref?.threadId as string | undefined) : block.threadId);

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      const uploads = await uploadsOf(input, position, maxFileBytes);
      const threadId = threadFor(root);
      const message = await client.execute(payloadOf(position, uploads), uploads, threadId);
      const inThread = threadId ?? (position === 0 && block.threadName !== undefined ? message.channel_id : undefined);
      return refOf(message, guildId, inThread);
    },
    async reconcile(position) {
      throw cannotTell(position, 'a Discord webhook has no idempotency key and cannot read the channel\'s messages');
    },
  };
}
