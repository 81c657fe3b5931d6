// What the TikTok emulator's Content Posting routes share: the publishes (one per init, by
// publish_id), what each received (a video's chunks hashed on the way in: only their SHA-256 and byte
// counts are kept, never the bytes; a photo post's downloads), its status as TikTok reports it, the
// app's cap on distinct direct-posting creators, each creator's posts of the day, and the logs a test
// inspects.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { FetchMedia } from '../shared/media-fetch.ts';

export type PrivacyLevel = 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';
export type PublishStatusName = 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'SEND_TO_USER_INBOX' | 'PUBLISH_COMPLETE' | 'FAILED';

/** What creator_info answers for a user. */
export interface CreatorSettings {
  privacyLevelOptions: PrivacyLevel[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
  /** A private account (an unaudited app may direct-post only to those). */
  privateAccount: boolean;
}

export const DEFAULT_CREATOR: CreatorSettings = {
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  privateAccount: false,
};

export interface ReceivedChunk {
  publishId: string;
  index: number;
  first: number;
  last: number;
  total: number;
  bytes: number;
  sha256: string;
  contentType: string;
  /** 206 (more to come) or 201 (the last). */
  status: number;
  /** When it arrived whole (the emulator's clock). */
  at: number;
}

export interface VideoUpload {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  /** Bytes received in whole chunks, in order. */
  received: number;
  chunks: ReceivedChunk[];
  hash: Hash;
  /** The whole video's SHA-256, once every chunk arrived. */
  sha256: string | null;
  /** The first bytes, to tell a video from anything else. */
  head: Buffer;
}

/** A PULL_FROM_URL video as the emulator downloaded it: only its size, digest and sniffed type are kept. */
export interface VideoPull {
  url: string;
  /** Still downloading, then whether the download gave a usable video. */
  state: 'downloading' | 'done' | 'failed';
  bytes: number;
  sha256: string | null;
  mime?: string;
  /** Why it failed: the download itself (`video_pull_failed`) or its bytes (`file_format_check_failed`). */
  failReason?: 'video_pull_failed' | 'file_format_check_failed';
  why?: string;
}

export interface PhotoPull {
  url: string;
  ok: boolean;
  mime?: string;
  bytes?: number;
  why?: string;
}

export interface Publish {
  publishId: string;
  openId: string;
  kind: 'video' | 'photo';
  mode: 'DIRECT_POST' | 'MEDIA_UPLOAD';
  postInfo: Record<string, unknown>;
  status: PublishStatusName;
  failReason: string | null;
  /** Status fetches answered since the content arrived in full. */
  pollsSinceReady: number;
  /** The public post id (an int64, kept as its decimal digits), once PUBLISH_COMPLETE with a non-private level. */
  postId: string | null;
  /** An inbox draft the creator finished or discarded in the app: no longer a pending share. */
  leftInbox: boolean;
  /** A FILE_UPLOAD video's chunks. */
  upload?: VideoUpload;
  /** A PULL_FROM_URL video's download. */
  pulledVideo?: VideoPull;
  photos?: PhotoPull[];
  createdAt: number;
}

export interface InitCall {
  path: string;
  openId: string;
  body: unknown;
  publishId: string | null;
  /** The error code TikTok answered, or 'ok'. */
  answer: string;
  at: number;
}

export interface ChunkStall {
  index: number;
  when: 'unread' | 'unanswered';
  ms: number;
}

export interface PublishingOptions {
  /** Status fetches a publish stays PROCESSING after its content arrived (default 1). */
  processingPolls?: number;
  /** Distinct creators who may direct-post through the app in 24 hours (default 5: an unaudited app's). */
  creatorCap?: number;
  /** Posts a creator may make through apps in 24 hours before spam_risk_too_many_posts (default 15, 3rd-party figure). */
  creatorDailyPosts?: number;
  /** Inbox drafts (MEDIA_UPLOAD) a creator may have pending in 24 hours before spam_risk_too_many_pending_share (default 5, TikTok's; 0 turns it off). */
  pendingShareCap?: number;
  /** URL prefixes verified for the app: PULL_FROM_URL of anything else is url_ownership_unverified (default: none). */
  verifiedPrefixes?: string[];
  /** An unaudited app: direct posts only to private accounts (default false). */
  unaudited?: boolean;
  /** Extra certificate authorities the emulator trusts when it downloads photos and videos (tests' local HTTPS hosts). */
  trustedCa?: string[];
  /** How photos and pulled videos are downloaded instead of the emulator's own fetch (shared/media-fetch.ts): the sandbox's guarded one. */
  fetchMedia?: FetchMedia;
}

export class Publishing {
  readonly publishes = new Map<string, Publish>();
  readonly inits: InitCall[] = [];
  readonly chunks: ReceivedChunk[] = [];
  readonly statusPolls: { publishId: string; status: string; at: number }[] = [];
  readonly creatorInfoCalls: { openId: string; at: number }[] = [];
  /** Direct posts accepted, per creator: the cap and the daily post count read them. */
  readonly directPosts: { openId: string; at: number }[] = [];
  readonly clock: Clock;
  processingPolls: number;
  creatorCap: number;
  creatorDailyPosts: number;
  pendingShareCap: number;
  verifiedPrefixes: string[];
  unaudited: boolean;
  trustedCa: string[];
  readonly fetchMedia: FetchMedia | undefined;
  /** Post ids the next public posts get, in order (a test's chosen int64 digits); then random ones. */
  readonly nextPostIds: string[] = [];
  /** fail_reason the next publishes end with (FAILED), in order. */
  readonly failures: string[] = [];
  /** The next PUT of chunk `index` hangs `ms`: before reading its body (`unread`), or after receiving it whole (`unanswered`). */
  stall: ChunkStall | undefined;
  /** Chunk indexes whose PUT is hanging now. */
  readonly stalled: number[] = [];

  constructor(clock: Clock, options: PublishingOptions) {
    this.clock = clock;
    this.processingPolls = options.processingPolls ?? 1;
    this.creatorCap = options.creatorCap ?? 5;
    this.creatorDailyPosts = options.creatorDailyPosts ?? 15;
    this.pendingShareCap = options.pendingShareCap ?? 5;
    this.verifiedPrefixes = [...(options.verifiedPrefixes ?? [])];
    this.unaudited = options.unaudited ?? false;
    this.trustedCa = [...(options.trustedCa ?? [])];
    this.fetchMedia = options.fetchMedia;
  }

  /**
   * A new publish: a FILE_UPLOAD video waits for its chunks (PROCESSING_UPLOAD); a video or photos
   * pulled from URLs wait for TikTok's download (PROCESSING_DOWNLOAD).
   */
  create(input: Pick<Publish, 'openId' | 'kind' | 'mode' | 'postInfo'> & { upload?: Omit<VideoUpload, 'received' | 'chunks' | 'hash' | 'sha256' | 'head'>; videoUrl?: string }): Publish {
    const prefix = input.kind === 'photo' ? 'p_pub_url~v2' : input.upload ? 'v_pub_file~v2-1' : 'v_pub_url~v2-1';
    const publish: Publish = {
      publishId: `${prefix}.${randomBytes(9).toString('hex')}`,
      openId: input.openId,
      kind: input.kind,
      mode: input.mode,
      postInfo: input.postInfo,
      status: input.upload ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD',
      failReason: null,
      pollsSinceReady: -1,
      postId: null,
      leftInbox: false,
      createdAt: this.clock.now(),
      ...(input.upload ? { upload: { ...input.upload, received: 0, chunks: [], hash: createHash('sha256'), sha256: null, head: Buffer.alloc(0) } } : {}),
      ...(input.videoUrl ? { pulledVideo: { url: input.videoUrl, state: 'downloading', bytes: 0, sha256: null } } : {}),
    };
    if (input.mode === 'DIRECT_POST') this.directPosts.push({ openId: input.openId, at: publish.createdAt });
    this.publishes.set(publish.publishId, publish);
    return publish;
  }

  /** Creators who direct-posted in the last 24 hours. */
  activeCreators(): Set<string> {
    const since = this.clock.now() - 24 * 3600_000;
    return new Set(this.directPosts.filter((p) => p.at >= since).map((p) => p.openId));
  }

  postsToday(openId: string): number {
    const since = this.clock.now() - 24 * 3600_000;
    return this.directPosts.filter((p) => p.openId === openId && p.at >= since).length;
  }

  /** The content arrived in full: processing begins (or ends FAILED, when asked or when it is not media). */
  ready(publish: Publish, unusable?: string): void {
    const failure = unusable ?? this.failures.shift();
    if (failure) {
      publish.status = 'FAILED';
      publish.failReason = failure;
      return;
    }
    publish.pollsSinceReady = 0;
    if (this.processingPolls <= 0) this.#finish(publish);
  }

  /** A status fetch: processing moves on by one poll. */
  poll(publish: Publish): void {
    if (publish.pollsSinceReady < 0 || publish.status === 'FAILED') return;
    if (publish.status === 'PUBLISH_COMPLETE' || publish.status === 'SEND_TO_USER_INBOX') return;
    publish.pollsSinceReady += 1;
    if (publish.pollsSinceReady > this.processingPolls) this.#finish(publish);
  }

  /** Inbox drafts of the creator sent in the last 24 hours and still waiting for them (not failed, not finished in the app). */
  pendingShares(openId: string): number {
    const since = this.clock.now() - 24 * 3600_000;
    return [...this.publishes.values()].filter((p) => p.openId === openId && p.mode === 'MEDIA_UPLOAD' && p.createdAt >= since
      && p.status !== 'FAILED' && !p.leftInbox).length;
  }

  isVerified(url: string): boolean {
    return this.verifiedPrefixes.some((prefix) => url.startsWith(prefix));
  }

  /** A draft lands in the creator's inbox; a direct post is published. */
  #finish(publish: Publish): void {
    publish.status = publish.mode === 'MEDIA_UPLOAD' ? 'SEND_TO_USER_INBOX' : 'PUBLISH_COMPLETE';
    // A SELF_ONLY post never gets a public id; the others do once moderated (here: at once).
    if (publish.status === 'PUBLISH_COMPLETE' && publish.postInfo.privacy_level !== 'SELF_ONLY') {
      publish.postId = this.nextPostIds.shift() ?? newInt64Id(73n);
    }
  }
}

/**
 * A TikTok id: an int64 (TikTok's ids are 19 digits, below 2^63), beginning with `prefix` (two digits)
 * so that ids of different kinds are told apart in a test's output. Kept as its decimal digits: a JS
 * number cannot hold it exactly.
 */
export function newInt64Id(prefix: bigint): string {
  const tail = randomBytes(8).readBigUInt64BE() % 10n ** 17n;
  return (prefix * 10n ** 17n + tail).toString();
}
