// Publishing to a Telegram chat (a channel or a group) as its bot: every container is a message —
// sendMessage, one file (sendPhoto, sendVideo, sendDocument) or an album (sendMediaGroup) — and every
// later one replies to the root (`reply_parameters`), which makes the post a thread in the chat.
// Files go by URL where Telegram may fetch them itself (a public address, within its URL limits),
// else their bytes are uploaded (multipart). The Bot API has no idempotency key and gives a bot no way
// to read a chat's messages, so a crash between a call and its record cannot be reconciled: reconcile
// says it cannot tell ('unknown'), never guesses.
import { PublishError } from '../../core/errors.ts';
import type { PartRef } from '../../core/post.ts';
import type { MediaSource, NetworkAdapter, PreparedPublish, PublishInput } from '../contract.ts';
import { reconcileErrors } from '../errors.ts';
import { checkFetchableByNetwork, type PublicUrlContext } from '../public-url.ts';
import { MB } from '../video.ts';
import { TelegramClient, type TelegramMessage, type Upload } from './client.ts';
import type { TelegramBlock } from './options.ts';
import { fileKindOf, judge, parseModesOf, textsOf, type FileKind } from './shape.ts';

const { cannotTell } = reconcileErrors('telegram', 'the chat');

/** https://core.telegram.org/bots/api#sending-files: what Telegram downloads by URL, and what a bot may upload. */
export interface FileLimits {
  url: Record<'photo' | 'other', number>;
  upload: Record<'photo' | 'other', number>;
}

export const FILE_LIMITS: FileLimits = { url: { photo: 5 * MB, other: 20 * MB }, upload: { photo: 10 * MB, other: 50 * MB } };

export interface TelegramAdapterOptions {
  apiUrl: string;
  publicUrl: PublicUrlContext;
  limits?: FileLimits;
}

export function createTelegramAdapter(options: TelegramAdapterOptions): NetworkAdapter {
  return {
    network: 'telegram',
    async prepare(input) {
      const token = input.account.credential;
      if (!token) throw new PublishError('auth', 'telegram: no bot token is stored for the account; connect it again');
      judge(input);
      return preparedFor(new TelegramClient(options.apiUrl, token), input, options);
    },
  };
}

/** One file of a message: a URL Telegram downloads, or bytes uploaded with the call. */
type FileRef = { kind: FileKind; url?: string; upload?: Omit<Upload, 'field'> };

function preparedFor(client: TelegramClient, input: PublishInput, options: TelegramAdapterOptions): PreparedPublish {
  const block = (input.block ?? {}) as TelegramBlock;
  const texts = textsOf(input);
  const modes = parseModesOf(input);
  const chatId = input.account.networkUniqueId;
  const limits = options.limits ?? FILE_LIMITS;
  const delivery = (root: PartRef | undefined) => ({
    chat_id: chatId,
    disable_notification: block.disableNotification,
    protect_content: block.protectContent,
    reply_parameters: root ? { message_id: Number(root.platformId) } : undefined,
  });
  const captioned = (position: number) => ({ caption: texts[position] || undefined, parse_mode: modes[position] });

  /** Opens each file (its size decides how it travels) and chooses: by URL, else uploaded, else refused. */
  async function filesOf(position: number): Promise<FileRef[]> {
    const files: FileRef[] = [];
    for (const item of input.containers[position]!.media) {
      const kind = fileKindOf(item.filename);
      const source = await input.openMedia(item.url);
      const limit = kind === 'photo' ? 'photo' : 'other';
      if (source.size <= limits.url[limit] && fetchableByTelegram(item.url, options.publicUrl)) files.push({ kind, url: item.url });
      else if (source.size <= limits.upload[limit]) files.push({ kind, upload: { filename: item.filename, source } });
      else throw tooBig(item.filename, source, limits.upload[limit], kind);
    }
    return files;
  }

  /** One file: its URL as the method's parameter, or the upload in the form field of that name (sending-files). */
  async function sendOne(file: FileRef, params: Record<string, unknown>): Promise<TelegramMessage> {
    const method = METHODS[file.kind];
    if (file.upload) return client.upload<TelegramMessage>(method, params, [{ field: file.kind, ...file.upload }]);
    return client.call<TelegramMessage>(method, { ...params, [file.kind]: file.url });
  }

  /** An album: each upload in a form field the item names with attach://<field> (InputMedia). */
  async function sendAlbum(files: FileRef[], params: Record<string, unknown>, position: number): Promise<TelegramMessage[]> {
    const uploads: Upload[] = [];
    const media = files.map((file, n) => {
      if (file.upload) uploads.push({ field: `file${n}`, ...file.upload });
      return { type: file.kind, media: file.upload ? `attach://file${n}` : file.url, ...(n === 0 ? captioned(position) : {}) };
    });
    const albumParams = { ...params, media };
    return uploads.length ? client.upload<TelegramMessage[]>('sendMediaGroup', albumParams, uploads) : client.call<TelegramMessage[]>('sendMediaGroup', albumParams);
  }

  async function send(position: number, root: PartRef | undefined): Promise<TelegramMessage[]> {
    const files = await filesOf(position);
    if (!files.length) {
      return [await client.call<TelegramMessage>('sendMessage', {
        ...delivery(root), text: texts[position], parse_mode: modes[position], link_preview_options: block.disableLinkPreview ? { is_disabled: true } : undefined,
      })];
    }
    if (files.length === 1) return [await sendOne(files[0]!, { ...delivery(root), ...captioned(position) })];
    return sendAlbum(files, delivery(root), position);
  }

  return {
    reserve: () => ({ startedAt: new Date().toISOString() }),
    async publishPart(position, _reservation, root) {
      const messages = await send(position, root);
      return refOf(messages, input.containers[position]!.media.length);
    },
    async reconcile(position) {
      throw cannotTell(position, 'Telegram keeps no idempotency key and gives a bot no way to read the chat\'s messages');
    },
  };
}

const METHODS: Record<FileKind, string> = { photo: 'sendPhoto', video: 'sendVideo', document: 'sendDocument' };

/**
 * The first message of the container stands for it; an album's every message is kept (to delete them
 * all), and how many files it carries (an edit changes a text message's text, else its caption).
 */
function refOf(messages: TelegramMessage[], files: number): PartRef {
  const [first] = messages;
  if (!first) throw new PublishError('unknown', 'telegram: the Bot API answered an album without messages');
  return { platformId: String(first.message_id), url: messageUrl(first), ref: { chatId: first.chat.id, messageIds: messages.map((m) => m.message_id), files } };
}

/** A public chat's message is at t.me/<username>/<id>; a private one's at t.me/c/<id without -100>/<id>, for its members. */
export function messageUrl(message: TelegramMessage): string {
  if (message.chat.username) return `https://t.me/${message.chat.username}/${message.message_id}`;
  return `https://t.me/c/${String(message.chat.id).replace(/^-100/, '').replace(/^-/, '')}/${message.message_id}`;
}

/** Telegram downloads a URL itself only from a public address: Crier's own media when PUBLIC_BASE_URL is one. */
function fetchableByTelegram(url: string, publicUrl: PublicUrlContext): boolean {
  try {
    checkFetchableByNetwork('telegram', url, publicUrl);
    return true;
  } catch {
    return false;
  }
}

function tooBig(filename: string, source: MediaSource, limit: number, kind: FileKind): PublishError {
  return new PublishError('permanent', `telegram: ${filename} is ${source.size} bytes; a bot sends ${kind === 'photo' ? 'photos' : 'files'} of ${limit / MB} MB at most`, undefined, 'media_rejected');
}
