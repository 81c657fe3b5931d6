// Threads webhooks as Meta sends them (webhooks doc): a POST to the app's callback URL with the
// `replies` field's notification — `{app_id, topic:"moderate", target_id, time, subscription_id,
// has_uid_field:false, values:{value:{id, username, text, media_type, permalink, replied_to:{id},
// root_post:{id, owner_id, username}, shortcode, timestamp}, field:"replies"}}` — signed with the
// Threads app secret in X-Hub-Signature-256. A redelivery sends the same body again.
import { metaSignature } from '../shared/meta-signature.ts';
import { metaTime } from './routes/nodes.ts';
import type { ThreadsMedia, ThreadsWorld } from './state.ts';

export interface RepliesWebhookInput {
  /** The app's callback URL (Crier's /inbound/threads). */
  callbackUrl: string;
  /** The Threads app id and secret the subscription belongs to. */
  appId: string;
  appSecret: string;
  /** The reply the notification is about (a published reply, addReply's or Crier's own). */
  replyId: string;
}

export interface SentWebhook {
  status: number;
  body: string;
  /** The exact bytes sent, and the signature header they carried. */
  rawBody: string;
  signature: string;
}

/** The notification body for a reply (the same bytes every time: a redelivery is identical). */
export function repliesNotification(world: ThreadsWorld, appId: string, reply: ThreadsMedia): string {
  const root = world.publishing.media.find((m) => m.id === reply.rootId);
  const rootOwner = root?.userId ?? reply.userId;
  return JSON.stringify({
    app_id: appId,
    topic: 'moderate',
    // The doc's table: the media's id.
    target_id: reply.id,
    time: Math.floor(reply.publishedAt / 1000),
    subscription_id: `${appId}${rootOwner}`.slice(-15),
    has_uid_field: false,
    values: {
      value: {
        id: reply.id,
        username: reply.username,
        ...(reply.text === undefined ? {} : { text: reply.text }),
        media_type: reply.mediaType,
        permalink: reply.permalink,
        replied_to: { id: reply.replyToId },
        root_post: { id: reply.rootId, owner_id: rootOwner, username: world.users.get(rootOwner)?.username ?? root?.username ?? '' },
        shortcode: reply.shortcode,
        timestamp: metaTime(reply.publishedAt),
      },
      field: 'replies',
    },
  });
}

export async function sendRepliesWebhook(world: ThreadsWorld, input: RepliesWebhookInput): Promise<SentWebhook> {
  const reply = world.publishing.media.find((m) => m.id === input.replyId && m.replyToId !== undefined);
  if (!reply) throw new Error(`threads emulator: no reply ${input.replyId} to notify`);
  const rawBody = repliesNotification(world, input.appId, reply);
  const signature = metaSignature(rawBody, input.appSecret);
  const res = await fetch(input.callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature, 'user-agent': 'facebookexternalua' },
    body: rawBody,
  });
  return { status: res.status, body: await res.text(), rawBody, signature };
}

/**
 * With a `replies` subscription set, Threads notifies each new reply on the subscriber's posts as it
 * is published (in the background: the publish answer does not wait for it).
 */
export function notifyReply(world: ThreadsWorld, reply: ThreadsMedia): void {
  const subscription = world.engagement.subscription;
  if (!subscription || reply.replyToId === undefined) return;
  void sendRepliesWebhook(world, { ...subscription, replyId: reply.id }).then(
    (sent) => world.engagement.deliveries.push({ replyId: reply.id, status: sent.status, body: sent.body }),
    (error: Error) => world.engagement.deliveries.push({ replyId: reply.id, status: null, body: error.message }),
  );
}
