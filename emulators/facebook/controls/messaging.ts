// The test and sandbox handle on Instagram messaging (server.ts `instagramMessaging`): people who
// comment and write, the webhooks their acts send (webhooks.ts), and what the Send and User Profile
// APIs received; and the Instagram controls' addComment wrapped so that a comment is pushed to the
// subscription as Meta pushes every comment.
import type { IgContact, IgContactComment, IgDirectMessage, InstagramMessaging } from '../state/messaging.ts';
import type { SentWebhook, Signing, WebhookSender } from '../webhooks.ts';
import type { InstagramControls } from './instagram.ts';

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
