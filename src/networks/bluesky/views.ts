// Bluesky's AppView answers as Crier reads them: the post view fields it uses, at-uris, and the
// mapping of a reply in a thread to the spec's Reply record (engagement.md §1.1).
import { PublishError } from '../../core/errors.ts';
import type { Reply } from '../capabilities.ts';

export const POST = 'app.bsky.feed.post';
const AT_URI = /^at:\/\/(did:[a-z]+:[a-zA-Z0-9._:%-]+)\/([a-zA-Z0-9.-]+)\/([a-zA-Z0-9._~:-]+)$/;

export interface PostViewLike {
  uri: string;
  cid: string;
  author: { did: string; handle: string; displayName?: string; avatar?: string };
  record: unknown;
  replyCount?: number;
  repostCount?: number;
  likeCount?: number;
  quoteCount?: number;
  bookmarkCount?: number;
  indexedAt: string;
}

/** The fields of a post record Crier reads (app.bsky.feed.post). */
export interface PostRecordLike {
  text?: string;
  createdAt?: string;
  reply?: { root?: { uri?: string; cid?: string }; parent?: { uri?: string; cid?: string } };
  embed?: { $type?: string; images?: unknown[]; media?: { $type?: string; images?: unknown[] } };
}

export const recordOf = (view: PostViewLike) => (view.record ?? {}) as PostRecordLike;

/** An at-uri of a post: its repository (DID) and record key; a clear refusal otherwise. */
export function parsePostUri(uri: string, what: string): { did: string; rkey: string } {
  const match = AT_URI.exec(uri);
  if (!match || match[2] !== POST) throw new PublishError('permanent', `bluesky: ${what} "${uri}" is not the at:// URI of a Bluesky post`, undefined, 'invalid');
  return { did: match[1]!, rkey: match[3]! };
}

export const postUrl = (handle: string, uri: string) => `https://bsky.app/profile/${handle}/post/${uri.split('/').pop()}`;

/** One reply of a thread as the spec's Reply (nested `replies` are added by the caller). */
export function replyOf(view: PostViewLike): Reply {
  const record = recordOf(view);
  const { author } = view;
  return {
    id: view.uri,
    author: author.did,
    author_name: author.displayName || null,
    author_username: author.handle,
    ...(author.avatar ? { author_avatar_url: author.avatar } : {}),
    author_profile_url: `https://bsky.app/profile/${author.handle}`,
    text: record.text ?? '',
    created_at: record.createdAt ?? null,
    ...(typeof view.likeCount === 'number' ? { like_count: view.likeCount } : {}),
    platform_specific: {
      cid: view.cid,
      reply_count: view.replyCount ?? null,
      repost_count: view.repostCount ?? null,
      quote_count: view.quoteCount ?? null,
      indexed_at: view.indexedAt,
      parent_uri: record.reply?.parent?.uri ?? null,
    },
  };
}

/** Pictures or a video in a post record (a quote with media counts its media). */
export function mediaCountOf(record: PostRecordLike): number {
  const embed = record.embed?.$type === 'app.bsky.embed.recordWithMedia' ? record.embed.media : record.embed;
  if (embed?.$type === 'app.bsky.embed.images') return embed.images?.length ?? 0;
  if (embed?.$type === 'app.bsky.embed.video') return 1;
  return 0;
}
