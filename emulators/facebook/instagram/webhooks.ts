// What Meta POSTs to an app's webhook callback for Instagram (object "instagram"; engagement.md §4.6),
// sent by the emulator when a test makes someone act: a comment (by another user or by the account
// itself), a message, a quick-reply tap, an echo of what the account sent, a redelivery of an earlier
// body, or a delivery signed wrongly or not at all. Bodies are serialized as Meta does (non-ASCII and
// "/" escaped) and signed X-Hub-Signature-256 with the app secret, over those exact bytes.
import { metaSignature } from '../../shared/meta-signature.ts';
import type { InstagramControls } from './controls.ts';
import type { IgContact, IgContactComment, IgDirectMessage, InstagramMessaging } from './messaging.ts';

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

/**
 * Meta pushes a `comments` change for every comment on a subscribed account's media, whoever writes
 * it: with a subscription set, a comment `fb.instagram.addComment` makes is sent too, in the
 * background as Meta does (the comment exists whether or not the callback answers). A contact's
 * comment is also kept as theirs, so the account may answer it with a private reply.
 */
export function pushingComments(controls: InstagramControls, messaging: InstagramMessaging, sender: WebhookSender, ownerOf: (mediaId: string) => string | undefined): InstagramControls {
  return {
    ...controls,
    addComment(objectId, input) {
      const added = controls.addComment(objectId, input);
      const owner = ownerOf(added.mediaId);
      if (!owner) return added;
      const comment: IgContactComment = {
        id: added.id, igUserId: owner, mediaId: added.mediaId, authorId: added.igUserId, authorUsername: added.username, text: added.text,
        timestamp: added.timestamp, ...(added.parentId ? { parentId: added.parentId } : {}),
      };
      if (messaging.contacts.has(comment.authorId)) messaging.comments.set(comment.id, comment);
      // An unreachable callback loses the notification, as Meta gives up on one in the end.
      if (sender.subscription) void sender.comment(comment).catch(() => undefined);
      return added;
    },
  };
}

/** The test and sandbox handle on Instagram messaging and the webhooks it sends (server.ts `instagramMessaging`). */
export interface InstagramMessagingControls {
  /** Where webhooks go and the app secret they are signed with (the app dashboard's subscription). */
  subscribe(url: string, appSecret: string): void;
  /** Someone who can comment on and write to the accounts. */
  addContact(input?: Partial<IgContact>): IgContact;
  /** A comment on the account's media by a contact (`from`), or by the account itself (`from` = the account's id). */
  comment(input: { igUserId: string; mediaId: string; from: string; text: string; parentId?: string; ageMs?: number; signing?: Signing }): Promise<{ comment: IgContactComment; delivery: SentWebhook }>;
  /** The contact writes to the account (`quickReplyPayload`: they tapped that button). */
  message(input: { igUserId: string; from: string; text: string; quickReplyPayload?: string; ageMs?: number; signing?: Signing }): Promise<{ message: IgDirectMessage; delivery: SentWebhook }>;
  /** The account writes from the Instagram app: its echo is delivered (not a Send API message). */
  appMessage(input: { igUserId: string; to: string; text: string }): Promise<{ message: IgDirectMessage; delivery: SentWebhook }>;
  /** An earlier delivery's body, sent again (default: the last one). */
  redeliver(index?: number): Promise<SentWebhook>;
  /** Echoes of Send API messages (default on). */
  echoSends(on: boolean): void;
  /** Moves the contact's messages to the account back in time (the 24-hour window closes on the network's side). */
  ageConversation(igUserId: string, contactId: string, ms: number): void;
  messages(igUserId?: string): IgDirectMessage[];
  /** Send API and User Profile API calls, in order. */
  calls(): { method: string; path: string; body: unknown }[];
  /** Every webhook POSTed, with Crier's answer. */
  deliveries(): SentWebhook[];
}

export function instagramMessagingControls(messaging: InstagramMessaging, sender: WebhookSender, usernameOf: (igUserId: string) => string): InstagramMessagingControls {
  const authorName = (igUserId: string, from: string) => (from === igUserId ? usernameOf(igUserId) : messaging.contacts.get(from)?.username);
  return {
    subscribe: (url, appSecret) => {
      sender.subscription = { url, appSecret };
    },
    addContact: (input) => messaging.addContact(input),
    async comment({ igUserId, mediaId, from, text, parentId, ageMs = 0, signing }) {
      const authorUsername = authorName(igUserId, from);
      if (!authorUsername) throw new Error(`no contact ${from}`);
      const comment: IgContactComment = {
        id: messaging.nextId('1790'), igUserId, mediaId, authorId: from, authorUsername, text, timestamp: messaging.now() - ageMs,
        ...(parentId ? { parentId } : {}),
      };
      messaging.comments.set(comment.id, comment);
      return { comment, delivery: await sender.comment(comment, signing) };
    },
    async message({ igUserId, from, text, quickReplyPayload, ageMs = 0, signing }) {
      if (!messaging.contacts.has(from)) throw new Error(`no contact ${from}`);
      const message: IgDirectMessage = {
        mid: messaging.nextMid(), igUserId, contactId: from, from: 'contact', via: 'contact', text, timestamp: messaging.now() - ageMs,
        ...(quickReplyPayload !== undefined ? { quickReplyPayload } : {}),
      };
      messaging.messages.push(message);
      return { message, delivery: await sender.message(message, signing) };
    },
    async appMessage({ igUserId, to, text }) {
      const message: IgDirectMessage = { mid: messaging.nextMid(), igUserId, contactId: to, from: 'account', via: 'app', text, timestamp: messaging.now() };
      messaging.messages.push(message);
      return { message, delivery: await sender.message(message) };
    },
    redeliver: (index) => sender.redeliver(index),
    echoSends: (on) => {
      messaging.echoSends = on;
    },
    ageConversation: (igUserId, contactId, ms) => {
      for (const m of messaging.messages) if (m.igUserId === igUserId && m.contactId === contactId) m.timestamp -= ms;
    },
    messages: (igUserId) => messaging.messages.filter((m) => igUserId === undefined || m.igUserId === igUserId),
    calls: () => [...messaging.calls],
    deliveries: () => [...sender.sent],
  };
}
