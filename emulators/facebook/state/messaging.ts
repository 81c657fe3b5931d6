// Instagram direct messages and the people who write to the emulated accounts: contacts (an IGSID
// with a public profile), the messages of each (account, contact) pair, the comments contacts left
// (which a private reply may answer once, within 7 days), and every messaging call in order. The
// Send API and the User Profile API (routes/instagram-messaging.ts) read it; the webhook sender
// (webhooks.ts) writes to it as the test's "other users" act.
import { randomBytes } from 'node:crypto';
import { NumberedIds } from './numbered-ids.ts';

/** The standard window after the person's last message (engagement.md §4.7.6). */
export const WINDOW_MS = 24 * 3_600_000;
/** A private reply may answer a comment for 7 days after it was made (§4.7.5). */
export const PRIVATE_REPLY_MS = 7 * 24 * 3_600_000;

export interface IgContact {
  /** The Instagram-scoped id (IGSID) the account sees. */
  id: string;
  username: string;
  name: string;
  followerCount: number;
  isVerified: boolean;
  /** The contact follows the business account, and the reverse. */
  followsAccount: boolean;
  followedByAccount: boolean;
}

export interface IgDirectMessage {
  mid: string;
  igUserId: string;
  contactId: string;
  from: 'contact' | 'account';
  /** How the account's message went out: the Send API, or the Instagram app (test trigger). */
  via: 'api' | 'app' | 'contact';
  text: string;
  quickReplies?: { content_type: string; title: string; payload: string }[];
  quickReplyPayload?: string;
  /** A private reply: the comment it answers. */
  commentId?: string;
  timestamp: number;
}

export interface IgContactComment {
  id: string;
  igUserId: string;
  mediaId: string;
  authorId: string;
  authorUsername: string;
  text: string;
  parentId?: string;
  timestamp: number;
  privateReplyMid?: string;
}

export class InstagramMessaging extends NumberedIds {
  readonly contacts = new Map<string, IgContact>();
  readonly messages: IgDirectMessage[] = [];
  readonly comments = new Map<string, IgContactComment>();
  /** Every Send API and User Profile API call, in order (token left out). */
  readonly calls: { method: string; path: string; body: unknown }[] = [];
  /** After a Send API message, its echo is sent as a webhook (as Meta does when message_echoes is subscribed). */
  echoSends = true;

  /** Message ids look like Meta's: long base64 strings. */
  nextMid(): string {
    return `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOj${randomBytes(18).toString('base64url')}`;
  }

  addContact(input: Partial<IgContact> = {}): IgContact {
    const id = input.id ?? this.nextId('9700');
    const contact: IgContact = {
      id, username: input.username ?? `person_${id.slice(-4)}`, name: input.name ?? `Person ${id.slice(-4)}`,
      followerCount: input.followerCount ?? 120, isVerified: input.isVerified ?? false,
      followsAccount: input.followsAccount ?? true, followedByAccount: input.followedByAccount ?? false,
    };
    this.contacts.set(id, contact);
    return contact;
  }

  /** The contact's last message to the account (the window and the profile consent start there). */
  lastFromContact(igUserId: string, contactId: string): number | undefined {
    const times = this.messages.filter((m) => m.igUserId === igUserId && m.contactId === contactId && m.from === 'contact').map((m) => m.timestamp);
    return times.length ? Math.max(...times) : undefined;
  }
}
