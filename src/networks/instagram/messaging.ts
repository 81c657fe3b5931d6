// Instagram direct messages through the Instagram API with Facebook Login (engagement.md §4.7), with
// the account's Page token on graph.facebook.com:
//  - send: POST /me/messages {recipient: {id} | {comment_id}, message: {text, quick_replies?}}
//    → {recipient_id, message_id}; quick replies are {content_type: "text", title, payload: the client's id}.
//    On the Facebook Login path the Send API is the Page's (/{page-id}/messages, or /me/messages with
//    the Page token: Meta's Messenger Platform "Instagram: Send a Message" and "Private Replies"
//    pages); /{ig-user-id}/messages is the Instagram Login path's (graph.instagram.com). /me names
//    the Page the stored token belongs to, so no Page id has to be stored (accounts connected
//    before this change included).
//  - contact: the User Profile API, GET /{igsid}?fields=…, readable once the person has messaged the account.
// Graph errors are classified as when publishing (../facebook/graph-errors.ts), with the messaging
// window's refusal (#10/2018278) named for what it is.
import { classifyGraph, graphErrorOf, graphReason } from '../facebook/graph-errors.ts';
import type { AccountSession, ContactLookup, NetworkCapabilities } from '../capabilities.ts';
import { NetworkHttp, type NetworkAnswer } from '../http.ts';
import { PublishError } from '../../core/errors.ts';
import { GRAPH_VERSION } from './client.ts';
import { MESSAGING_SCOPES } from './oauth.ts';


const PROFILE_FIELDS = 'name,username,follower_count,is_user_follow_business,is_business_follow_user,is_verified_user';
/** The Page's Send API, the Page being the one whose token the account keeps. */
const SEND_PATH = '/me/messages';
/** "This message is sent outside of allowed window." */
const OUTSIDE_WINDOW = 2018278;

export function instagramMessaging(apiUrl: string): NonNullable<NetworkCapabilities['messages']> {
  const http = (session: AccountSession) => {
    const token = session.account.accessToken;
    if (!token) throw new PublishError('auth', 'instagram: the account has no access token; reconnect it', undefined, 'auth');
    return new NetworkHttp({
      network: 'instagram',
      baseUrl: `${apiUrl.replace(/\/+$/, '')}/${GRAPH_VERSION}`,
      headers: () => ({ authorization: `OAuth ${token}` }),
      reasonOf: graphReason,
      classify: classifyMessaging,
    });
  };
  return {
    scopes: MESSAGING_SCOPES,
    async send(session, to, message) {
      const recipient = 'commentId' in to ? { comment_id: to.commentId } : { id: to.recipientId };
      const quickReplies = message.quickReplies?.map((reply) => ({ content_type: 'text', title: reply.title, payload: reply.id }));
      const { body } = await http(session).call({
        url: SEND_PATH,
        method: 'POST',
        json: { recipient, message: { text: message.text, ...(quickReplies ? { quick_replies: quickReplies } : {}) } },
      });
      const answer = body as { message_id?: unknown; recipient_id?: unknown };
      if (typeof answer.message_id !== 'string' || !answer.message_id) throw new PublishError('unknown', 'instagram: the Send API answered without a message_id');
      return { platformMessageId: answer.message_id, recipientId: typeof answer.recipient_id === 'string' ? answer.recipient_id : 'recipientId' in to ? to.recipientId : '' };
    },
    async contact(session, contactId) {
      try {
        const { body } = await http(session).call({ url: `/${encodeURIComponent(contactId)}?fields=${PROFILE_FIELDS}` });
        return profileOf(body as Record<string, unknown>);
      } catch {
        // No consent (the person never messaged the account), blocked, or unreachable: unknown.
        return null;
      }
    },
  };
}

function profileOf(body: Record<string, unknown>): ContactLookup {
  const bool = (value: unknown) => (typeof value === 'boolean' ? value : null);
  return {
    isFollower: bool(body.is_user_follow_business),
    isFollowedByAccount: bool(body.is_business_follow_user),
    followerCount: typeof body.follower_count === 'number' ? body.follower_count : null,
    isVerified: bool(body.is_verified_user),
    ...(typeof body.username === 'string' ? { username: body.username } : {}),
    ...(typeof body.name === 'string' ? { name: body.name } : {}),
  };
}

function classifyMessaging(answer: NetworkAnswer, reason: string) {
  const error = graphErrorOf(answer.body);
  if (error?.code === 10 && error.error_subcode === OUTSIDE_WINDOW) {
    return { kind: 'permanent' as const, code: 'forbidden' as const, reason: `outside the messaging window (${reason})` };
  }
  return classifyGraph(answer, reason);
}
