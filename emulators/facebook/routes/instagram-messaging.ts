// Instagram messaging on graph.facebook.com with the Page token (engagement.md §4.7):
//  - POST /{page-id}/messages or /me/messages (the Page of the Page token) {recipient: {id} |
//    {comment_id}, message: {text, quick_replies?}} → {recipient_id, message_id}: on the Facebook
//    Login path the Send API is the linked Page's (Messenger Platform, "Instagram: Send a Message",
//    https://developers.facebook.com/docs/messenger-platform/instagram/features/send-message, and
//    "Private Replies", .../instagram/features/private-replies). /{ig-user-id}/messages is the
//    Instagram Login path's (graph.instagram.com) and is refused here (the refusal's text is the
//    emulator's choice: Graph's generic "Unsupported post request"). Refusals as Graph gives them: outside the 24-hour window after
//    the contact's last message, or a private reply after 7 days (#10/2018278); a second private
//    reply to one comment; an unknown recipient (#100/2018001); a missing permission (#10).
//  - GET /{igsid}?fields=name,username,follower_count,is_user_follow_business,is_business_follow_user,is_verified_user
//    (the User Profile API): only once the person has messaged the account ("User consent is required").
// A sent message's echo is POSTed to the webhook subscription afterwards, as Meta does.
import type { Reply } from '../../shared/http.ts';
import { graphError } from '../errors/graph.ts';
import { fieldList, pick, renderFields, type FieldTree } from '../validate/fields.ts';
import { PRIVATE_REPLY_MS, WINDOW_MS, type IgDirectMessage, type InstagramMessaging } from '../state/messaging.ts';
import type { WebhookSender } from '../webhooks.ts';
import { authenticate, isReply, type FbRequest, type FbRoute, type FbWorld } from './context.ts';

const MAX_TEXT_BYTES = 1000;
const MAX_QUICK_REPLIES = 13;
const MAX_TITLE_CHARS = 20;

const outsideWindow = () => graphError({ message: '(#10) This message is sent outside of allowed window.', code: 10, subcode: 2018278 });
const noPermission = () => graphError({ message: '(#10) Application does not have permission for this action', code: 10 });
const noUser = () => graphError({ message: '(#100) No matching user found', code: 100, subcode: 2018001 });
const invalid = (message: string) => graphError({ message: `(#100) ${message}`, code: 100 });
/** A node without a Send API here (an IG user id on graph.facebook.com, another Page): Graph's generic refusal. */
const unsupportedPost = (id: string) => graphError({
  message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
  code: 100, subcode: 33, type: 'GraphMethodException',
});

export function instagramMessagingRoutes(world: FbWorld, messaging: InstagramMessaging, webhooks: WebhookSender): FbRoute[] {
  /** The Instagram account the token reaches (its Page's), or Graph's refusal. */
  const accountOf = (req: FbRequest, igUserId?: string): { igUserId: string; scopes: string[] } | Reply => {
    const info = authenticate(world, req);
    if (isReply(info)) return info;
    const check = world.oauth.checkAccess(req.token!);
    const scopes = check.ok ? check.scopes : [];
    const page = info.kind === 'page' ? world.store.pages.get(info.pageId!) : undefined;
    const own = page?.instagram?.id;
    if (!own || (igUserId !== undefined && igUserId !== own)) return graphError({ message: `(#100) Object with ID '${igUserId ?? 'me'}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, code: 100, subcode: 33 });
    return { igUserId: own, scopes };
  };

  /** The Instagram account of the Page the Send API was called on: /me or the Page's id, with the Page token. */
  const sendingAccount = (req: FbRequest): { igUserId: string; scopes: string[] } | Reply => {
    const info = authenticate(world, req);
    if (isReply(info)) return info;
    const node = req.params.id!;
    const pageId = info.kind === 'page' ? info.pageId! : undefined;
    if (node !== 'me' && node !== pageId) return unsupportedPost(node);
    return accountOf(req);
  };

  const send = async (req: FbRequest): Promise<Reply> => {
    const account = sendingAccount(req);
    if (refused(account)) return account;
    const body = bodyOf(req);
    messaging.calls.push({ method: 'POST', path: `/${req.params.id}/messages`, body });
    if (!account.scopes.includes('instagram_manage_messages')) return noPermission();
    const checked = checkMessage(body.message);
    if (refused(checked)) return checked;
    const recipient = (body.recipient ?? {}) as { id?: string; comment_id?: string };
    const target = recipient.comment_id !== undefined ? privateReplyTarget(account, recipient.comment_id) : directTarget(account.igUserId, recipient.id);
    if (refused(target)) return target;
    const message: IgDirectMessage = {
      mid: messaging.nextMid(), igUserId: account.igUserId, contactId: target.contactId, from: 'account', via: 'api',
      text: checked.text, ...(checked.quickReplies ? { quickReplies: checked.quickReplies } : {}),
      ...(recipient.comment_id !== undefined ? { commentId: recipient.comment_id } : {}), timestamp: messaging.now(),
    };
    messaging.messages.push(message);
    if (recipient.comment_id !== undefined) messaging.comments.get(recipient.comment_id)!.privateReplyMid = message.mid;
    // The echo arrives after the answer, as from Meta: never before the sender has the message id.
    if (messaging.echoSends && webhooks.subscription) setTimeout(() => void webhooks.message(message).catch(() => undefined), 50);
    return { status: 200, body: { recipient_id: target.contactId, message_id: message.mid } };
  };

  const privateReplyTarget = (account: { igUserId: string; scopes: string[] }, commentId: string): { contactId: string } | Reply => {
    if (!account.scopes.includes('pages_messaging')) return noPermission();
    const comment = messaging.comments.get(commentId);
    if (!comment || comment.igUserId !== account.igUserId) return invalid(`Invalid parameter: comment ${commentId} does not exist`);
    if (messaging.now() - comment.timestamp > PRIVATE_REPLY_MS) return outsideWindow();
    if (comment.privateReplyMid) return graphError({ message: '(#10) A private reply has already been sent to this comment.', code: 10, subcode: 2534022 });
    return { contactId: comment.authorId };
  };

  const directTarget = (igUserId: string, contactId: string | undefined): { contactId: string } | Reply => {
    if (!contactId || !messaging.contacts.has(contactId)) return noUser();
    const last = messaging.lastFromContact(igUserId, contactId);
    if (last === undefined || messaging.now() - last > WINDOW_MS) return outsideWindow();
    return { contactId };
  };

  /** GET /{igsid}: the User Profile API; undefined for ids that are not contacts (other node readers). */
  const profile = (req: FbRequest): Reply | undefined => {
    const contact = messaging.contacts.get(req.params.id!);
    if (req.method !== 'GET' || !contact) return undefined;
    const account = accountOf(req);
    if (refused(account)) return account;
    messaging.calls.push({ method: 'GET', path: `/${contact.id}`, body: { fields: req.query.fields ?? '' } });
    if (!account.scopes.includes('instagram_manage_messages')) return noPermission();
    if (messaging.lastFromContact(account.igUserId, contact.id) === undefined) {
      return graphError({ message: '(#230) User consent is required to access user profile', code: 230 });
    }
    return renderFields(req.query, fieldList('name', 'username'), (fields: FieldTree) => pick(fields, {
      id: () => contact.id, name: () => contact.name, username: () => contact.username, profile_pic: () => `https://scontent.example/${contact.id}.jpg`,
      follower_count: () => contact.followerCount, is_user_follow_business: () => contact.followsAccount,
      is_business_follow_user: () => contact.followedByAccount, is_verified_user: () => contact.isVerified,
    }, 'InstagramUser'));
  };
  world.nodes.push(profile);

  return [{ method: 'POST', url: '/:id/messages', versioned: true, handler: send }];
}

/** The Send API takes JSON, or a form whose recipient and message are JSON strings. */
function bodyOf(req: FbRequest): { recipient?: unknown; message?: unknown } {
  if (/json/i.test(req.contentType ?? '') && req.raw?.length) {
    try {
      return JSON.parse(req.raw.toString('utf8')) as { recipient?: unknown; message?: unknown };
    } catch {
      return {};
    }
  }
  const parse = (value: string | undefined) => {
    try {
      return value ? JSON.parse(value) : undefined;
    } catch {
      return undefined;
    }
  };
  return { recipient: parse(req.query.recipient), message: parse(req.query.message) };
}

function checkMessage(raw: unknown): { text: string; quickReplies?: { content_type: string; title: string; payload: string }[] } | Reply {
  const message = (raw ?? {}) as { text?: unknown; quick_replies?: unknown };
  if (typeof message.text !== 'string' || !message.text) return invalid('The parameter message[text] is required');
  if (Buffer.byteLength(message.text) > MAX_TEXT_BYTES) return invalid(`Length of param message[text] must be less than or equal to ${MAX_TEXT_BYTES}`);
  if (message.quick_replies === undefined) return { text: message.text };
  if (!Array.isArray(message.quick_replies) || message.quick_replies.length > MAX_QUICK_REPLIES) return invalid(`param message[quick_replies] must be an array of at most ${MAX_QUICK_REPLIES} items`);
  const quickReplies = [];
  for (const reply of message.quick_replies as { content_type?: unknown; title?: unknown; payload?: unknown }[]) {
    if (reply.content_type !== 'text') return invalid('param message[quick_replies][content_type] must be one of {text, user_phone_number, user_email}');
    if (typeof reply.title !== 'string' || typeof reply.payload !== 'string') return invalid('a text quick reply must have a title and a payload');
    // Meta truncates titles over 20 characters rather than refusing them.
    quickReplies.push({ content_type: 'text', title: [...reply.title].slice(0, MAX_TITLE_CHARS).join(''), payload: reply.payload });
  }
  return { text: message.text, quickReplies };
}

/** A route's own answer (an error) rather than the value it looked up. */
const refused = <T extends object>(value: T | Reply): value is Reply => 'status' in value && 'body' in value;
