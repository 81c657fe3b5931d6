// What Meta POSTs to an app's webhook callback for Instagram (object "instagram"; engagement.md §4.6),
// sent by the emulator when a test makes someone act: a comment (by another user or by the account
// itself), a message, a quick-reply tap, an echo of what the account sent, a redelivery of an earlier
// body, or a delivery signed wrongly or not at all. Bodies are serialized as Meta does (non-ASCII and
// "/" escaped) and signed X-Hub-Signature-256 with the app secret, over those exact bytes.
import { metaSignature } from '../shared/meta-signature.ts';
import type { IgContact, IgContactComment, IgDirectMessage, InstagramMessaging } from './state/messaging.ts';

export type Signing = 'valid' | 'none' | 'wrong';

export interface WebhookSubscription {
  /** The callback URL (Crier's /inbound/instagram). */
  url: string;
  appSecret: string;
}

export interface SentWebhook {
  body: string;
  signing: Signing;
  status: number;
  responseText: string;
}

export class WebhookSender {
  subscription: WebhookSubscription | undefined;
  readonly sent: SentWebhook[] = [];
  readonly #messaging: InstagramMessaging;

  constructor(messaging: InstagramMessaging) {
    this.#messaging = messaging;
  }

  /** The `comments` change of a comment on the account's media. */
  async comment(comment: IgContactComment, signing: Signing = 'valid'): Promise<SentWebhook> {
    const value = {
      from: { id: comment.authorId, username: comment.authorUsername },
      media: { id: comment.mediaId, media_product_type: 'FEED' },
      id: comment.id,
      text: comment.text,
      ...(comment.parentId ? { parent_id: comment.parentId } : {}),
    };
    return this.post({ object: 'instagram', entry: [{ id: comment.igUserId, time: Math.floor(this.#messaging.now() / 1000), changes: [{ field: 'comments', value }] }] }, signing);
  }

  /** A messaging event: the contact's message, or (echo) one the account sent. */
  async message(message: IgDirectMessage, signing: Signing = 'valid'): Promise<SentWebhook> {
    const echo = message.from === 'account';
    const event = {
      sender: { id: echo ? message.igUserId : message.contactId },
      recipient: { id: echo ? message.contactId : message.igUserId },
      timestamp: message.timestamp,
      message: {
        mid: message.mid,
        text: message.text,
        ...(echo ? { is_echo: true } : {}),
        ...(message.quickReplyPayload !== undefined ? { quick_reply: { payload: message.quickReplyPayload } } : {}),
      },
    };
    return this.post({ object: 'instagram', entry: [{ id: message.igUserId, time: message.timestamp, messaging: [event] }] }, signing);
  }

  /** The body of an earlier delivery, sent again byte for byte (Meta redelivers until it gets a 200). */
  async redeliver(index = this.sent.length - 1): Promise<SentWebhook> {
    const earlier = this.sent[index];
    if (!earlier) throw new Error(`no delivery #${index} to send again`);
    return this.send(earlier.body, 'valid');
  }

  async post(payload: unknown, signing: Signing): Promise<SentWebhook> {
    return this.send(metaJson(payload), signing);
  }

  private async send(body: string, signing: Signing): Promise<SentWebhook> {
    const subscription = this.subscription;
    if (!subscription) throw new Error('no webhook subscription: call instagramMessaging.subscribe(url, appSecret) first');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signing === 'valid') headers['x-hub-signature-256'] = metaSignature(body, subscription.appSecret);
    if (signing === 'wrong') headers['x-hub-signature-256'] = metaSignature(body, `${subscription.appSecret}-not`);
    const response = await fetch(subscription.url, { method: 'POST', headers, body });
    const sent = { body, signing, status: response.status, responseText: await response.text() };
    this.sent.push(sent);
    return sent;
  }
}

/** JSON as Meta writes it: non-ASCII characters as \uXXXX and "/" as "\/". */
export function metaJson(payload: unknown): string {
  return JSON.stringify(payload)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

export type { IgContact };

