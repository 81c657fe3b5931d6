// The test handle of the emulator's engagement side: replies from other profiles (or the account
// itself) under a post, seeded posts of kinds Crier cannot publish, the figures insights answer,
// the deletions made, and the `replies` webhook sent to a callback URL.
import { randomBytes } from 'node:crypto';
import { graphId } from '../routes/publishing.ts';
import { notifyReply, sendRepliesWebhook, type RepliesWebhookInput, type SentWebhook } from '../webhooks.ts';
import type { PostMetric, ThreadsMedia, ThreadsUser, ThreadsWorld, UserInsights } from '../state.ts';

export interface AddReplyInput {
  /** The post or reply answered. */
  to: string;
  /** The author: an existing user's username, else a new profile of that name. */
  username: string;
  text: string;
  /** Hidden by the root's owner (hide_status HIDDEN). */
  hidden?: boolean;
}

export interface AddPostInput {
  userId: string;
  text?: string;
  mediaType?: ThreadsMedia['mediaType'];
  /** Items of a CAROUSEL_ALBUM (default 2). */
  items?: number;
  /** Published this long ago on the emulator clock. */
  agoMs?: number;
}

export interface EngagementControls {
  /** A reply published by someone (replies of the account itself go through the API, or name its username). */
  addReply(input: AddReplyInput): ThreadsMedia;
  /** A post of the user as if made in the Threads app (any media type, in the past). */
  addPost(input: AddPostInput): ThreadsMedia;
  /** The lifetime figures /insights answers for a post (replies are always counted from the tree). */
  setPostInsights(mediaId: string, figures: Partial<Record<PostMetric, number>>): void;
  setUserInsights(userId: string, insights: UserInsights): void;
  /** Deletions made through DELETE /{media-id}, in order. */
  deleted(): { userId: string; mediaId: string; at: number }[];
  /** POSTs the signed `replies` notification of a reply to the callback URL; call it again for a redelivery. */
  sendRepliesWebhook(input: RepliesWebhookInput): Promise<SentWebhook>;
  /** From now on every new reply (published through the API or addReply) is notified there; null stops it. */
  subscribeReplies(subscription: Omit<RepliesWebhookInput, 'replyId'> | null): void;
  /** What the subscription sent so far, in order. */
  webhookDeliveries(): { replyId: string; status: number | null; body: string }[];
}

export function engagementControls(world: ThreadsWorld, addUser: (input: { username: string }) => ThreadsUser): EngagementControls {
  const { publishing } = world;
  const userNamed = (username: string) => [...world.users.values()].find((u) => u.username === username) ?? addUser({ username });
  const shortcode = () => randomBytes(8).toString('base64url').slice(0, 11);
  return {
    addReply: ({ to, username, text, hidden }) => {
      const parent = publishing.media.find((m) => m.id === to);
      if (!parent) throw new Error(`threads emulator: no post ${to} to reply to`);
      const author = userNamed(username);
      const code = shortcode();
      const reply: ThreadsMedia = {
        id: graphId(), containerId: '', userId: author.id, username: author.username, mediaType: 'TEXT_POST', text,
        replyToId: parent.id, rootId: parent.rootId, replyControl: 'everyone', allowlistedCountryCodes: undefined, media: [],
        shortcode: code, permalink: `https://www.threads.com/@${author.username}/post/${code}`, publishedAt: world.clock.now(), hidden: hidden ?? false,
      };
      publishing.media.push(reply);
      notifyReply(world, reply);
      return structuredClone(reply);
    },
    addPost: ({ userId, text, mediaType = 'TEXT_POST', items = 2, agoMs = 0 }) => {
      const user = world.users.get(userId);
      const code = shortcode();
      const id = graphId();
      const count = mediaType === 'TEXT_POST' || mediaType === 'REPOST_FACADE' ? 0 : mediaType === 'CAROUSEL_ALBUM' ? items : 1;
      const post: ThreadsMedia = {
        id, containerId: '', userId, username: user?.username ?? userId, mediaType, text, replyToId: undefined, rootId: id,
        replyControl: 'everyone', allowlistedCountryCodes: undefined,
        media: Array.from({ length: count }, (_, i) => ({ mediaType: mediaType === 'VIDEO' ? 'VIDEO' as const : 'IMAGE' as const, url: `https://scontent.cdninstagram.com/v/t51/${id}_${i}.jpg`, altText: undefined, mime: undefined })),
        shortcode: code, permalink: `https://www.threads.com/@${user?.username ?? userId}/post/${code}`, publishedAt: world.clock.now() - agoMs,
      };
      publishing.media.push(post);
      return structuredClone(post);
    },
    setPostInsights: (mediaId, figures) => {
      const media = publishing.media.find((m) => m.id === mediaId);
      if (!media) throw new Error(`threads emulator: no post ${mediaId}`);
      media.insights = { ...media.insights, ...figures };
    },
    setUserInsights: (userId, insights) => void world.engagement.userInsights.set(userId, structuredClone(insights)),
    deleted: () => structuredClone(world.engagement.deletes),
    sendRepliesWebhook: (input) => sendRepliesWebhook(world, input),
    subscribeReplies: (subscription) => void (world.engagement.subscription = subscription ?? undefined),
    webhookDeliveries: () => structuredClone(world.engagement.deliveries),
  };
}
