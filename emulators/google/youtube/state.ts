// YouTube's state in the Google emulator, kept apart from the connect side's store (which it only
// reads, for users and channels): upload sessions, videos (with their figures), thumbnails, comment
// threads one tier deep, channels' subscriber counts, the project's daily quota, and the log of calls
// in order. Uploaded bytes are never kept: a session
// keeps a running sha256 and a byte count, so a 300 MB upload costs the emulator no memory.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';

export type UploadStatus = 'uploaded' | 'processed' | 'failed' | 'rejected' | 'deleted';

export interface VideoResource {
  snippet: Record<string, unknown>;
  status: Record<string, unknown>;
}

export interface YoutubeVideo {
  id: string;
  channelId: string;
  /** What the session's metadata asked for, as stored (title, description, tags, categoryId...). */
  snippet: Record<string, unknown>;
  status: Record<string, unknown>;
  /** What YouTube applied when it differs from what was asked (`status.privacyStatus`). */
  appliedPrivacy?: string;
  uploadStatus: UploadStatus;
  failureReason?: string;
  rejectionReason?: string;
  /** videos.list answers left before `uploaded` becomes the outcome below. */
  pollsLeft: number;
  outcome: { uploadStatus: UploadStatus; failureReason?: string; rejectionReason?: string };
  bytes: number;
  sha256: string;
  contentType: string;
  publishedAt: string;
  thumbnail?: { bytes: number; sha256: string; contentType: string };
  /** statistics.viewCount and likeCount (commentCount is counted from the comments). */
  viewCount: number;
  likeCount: number;
  /** videos.delete took it: no longer served, kept for inspection. */
  deleted: boolean;
}

export interface ReceivedChunk {
  start: number;
  end: number;
}

export interface UploadSession {
  uploadId: string;
  clientId: string;
  channelId: string;
  resource: VideoResource;
  total: number | undefined;
  contentType: string;
  received: number;
  /** The running hash of bytes 0..received-1. */
  hash: Hash;
  chunks: ReceivedChunk[];
  /** Status queries answered (`Content-Range: bytes *\/TOTAL`). */
  queries: number;
  videoId?: string;
  /** After this chunk (0-based) is taken, its answer is held this long (a client killed while waiting). */
  holdAfterChunk?: { index: number; ms: number };
}

/**
 * A top-level comment (its thread's id is its own, as on YouTube) or a reply (`parentId`: the
 * top-level comment; its id is "<parentId>.<suffix>", as YouTube's reply ids look).
 */
export interface YoutubeComment {
  threadId: string;
  commentId: string;
  parentId: string | null;
  videoId: string;
  /** The channel of the video. */
  channelId: string;
  authorChannelId: string;
  authorDisplayName: string;
  textOriginal: string;
  likeCount: number;
  publishedAt: string;
}

export interface ThumbnailSet {
  videoId: string;
  status: number;
  bytes: number;
  contentType: string;
  sha256: string;
  /** The request's uploadType (`media`), or null when it had none. */
  uploadType: string | null;
}

export interface CallRecord {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  contentRange?: string;
  clientId?: string;
}

/**
 * What each call costs the project's units bucket, per Pacific day (determine_quota_cost). videos.insert
 * is not among them: since the 2026-06-01 revision it is counted in a bucket of its own (1 a call).
 */
export const DEFAULT_COSTS = { thumbnail: 50, comment: 50, list: 1, delete: 50 };

/** Google's two daily buckets: videos.insert calls, and the units of every other call. */
export type QuotaBucket = 'uploads' | 'units';

export class YoutubeState {
  readonly sessions = new Map<string, UploadSession>();
  readonly videos = new Map<string, YoutubeVideo>();
  readonly comments: YoutubeComment[] = [];
  readonly thumbnailSets: ThumbnailSet[] = [];
  readonly calls: CallRecord[] = [];
  /** What a project (OAuth client) spent of a bucket, keyed "clientId pacificDate[ uploads]". */
  readonly spent = new Map<string, number>();
  /** Uploads a channel made, for the per-channel cap (uploadLimitExceeded). */
  readonly uploadsByChannel = new Map<string, number>();
  /** channels.list statistics a test set: subscriberCount, and whether the channel hides it. */
  readonly subscribers = new Map<string, { count: number; hidden: boolean }>();
  /** The units bucket: every call but videos.insert, a day. */
  dailyUnits = 10_000;
  /** The uploads bucket: videos.insert calls a day (1 each). */
  uploadCalls = 100;
  costs = { ...DEFAULT_COSTS };
  processingPolls = 1;
  /** thumbnails.set's limit: 50 MB since the 2026-09-14 revision (2 MB before). */
  thumbnailMaxBytes = 50 * 1024 * 1024;
  refuseThumbnails: string | undefined;
  uploadCap = new Map<string, number>();
  nextOutcome: YoutubeVideo['outcome'] | undefined;
  nextHold: { index: number; ms: number } | undefined;
  /** The privacy YouTube gives the next uploads whatever was asked (undefined: what was asked). */
  privacyOverride: string | undefined;
  readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /**
   * Charges the project: `units` of its units bucket, or one call of its uploads bucket (videos.insert,
   * whatever `units` says); false (nothing charged) when the day's bucket cannot take it.
   */
  charge(clientId: string, units: number, bucket: QuotaBucket = 'units'): boolean {
    const key = quotaKey(clientId, this.clock.now(), bucket);
    const [cost, limit] = bucket === 'uploads' ? [1, this.uploadCalls] : [units, this.dailyUnits];
    const used = this.spent.get(key) ?? 0;
    if (used + cost > limit) return false;
    this.spent.set(key, used + cost);
    return true;
  }

  /** What the project spent of a bucket in the current Pacific day (units, or videos.insert calls). */
  usedToday(clientId: string, bucket: QuotaBucket = 'units'): number {
    return this.spent.get(quotaKey(clientId, this.clock.now(), bucket)) ?? 0;
  }

  openSession(clientId: string, channelId: string, resource: VideoResource, total: number | undefined, contentType: string): UploadSession {
    const session: UploadSession = {
      uploadId: `AEnB2U${randomBytes(24).toString('base64url')}`,
      clientId, channelId, resource, total, contentType,
      received: 0,
      hash: createHash('sha256'),
      chunks: [],
      queries: 0,
      ...(this.nextHold ? { holdAfterChunk: this.nextHold } : {}),
    };
    this.nextHold = undefined;
    this.sessions.set(session.uploadId, session);
    return session;
  }

  /** The video a completed session becomes. */
  completeSession(session: UploadSession): YoutubeVideo {
    const outcome = this.nextOutcome ?? { uploadStatus: 'processed' as const };
    this.nextOutcome = undefined;
    const video: YoutubeVideo = {
      id: randomBytes(8).toString('base64url').slice(0, 11),
      channelId: session.channelId,
      snippet: { ...session.resource.snippet, channelId: session.channelId, publishedAt: this.clock.iso() },
      status: session.resource.status,
      ...(this.privacyOverride ? { appliedPrivacy: this.privacyOverride } : {}),
      uploadStatus: 'uploaded',
      pollsLeft: this.processingPolls,
      outcome,
      bytes: session.received,
      sha256: session.hash.copy().digest('hex'),
      contentType: session.contentType,
      publishedAt: this.clock.iso(),
      viewCount: 0,
      likeCount: 0,
      deleted: false,
    };
    session.videoId = video.id;
    this.videos.set(video.id, video);
    this.uploadsByChannel.set(session.channelId, (this.uploadsByChannel.get(session.channelId) ?? 0) + 1);
    return video;
  }

  /** A video the channel already has (seeded by a test or the sandbox): processed, no bytes. */
  seedVideo(channelId: string, input: { title: string; description?: string; privacyStatus?: string; publishedAt?: string }): YoutubeVideo {
    const publishedAt = input.publishedAt ?? this.clock.iso();
    const video: YoutubeVideo = {
      id: randomBytes(8).toString('base64url').slice(0, 11),
      channelId,
      snippet: { title: input.title, description: input.description ?? '', categoryId: '22', channelId, publishedAt },
      status: { privacyStatus: input.privacyStatus ?? 'public' },
      uploadStatus: 'processed',
      pollsLeft: 0,
      outcome: { uploadStatus: 'processed' },
      bytes: 0,
      sha256: '',
      contentType: 'video/mp4',
      publishedAt,
      viewCount: 0,
      likeCount: 0,
      deleted: false,
    };
    this.videos.set(video.id, video);
    return video;
  }

  /** A live (not deleted) video. */
  video(id: string): YoutubeVideo | undefined {
    const video = this.videos.get(id);
    return video && !video.deleted ? video : undefined;
  }

  /** A comment on a video, top-level (no parentId) or a reply to a top-level comment. */
  addComment(video: YoutubeVideo, author: { channelId: string; displayName: string }, text: string, parentId: string | null = null, likeCount = 0): YoutubeComment {
    const id = `Ug${randomBytes(12).toString('base64url')}`;
    const commentId = parentId === null ? id : `${parentId}.${randomBytes(11).toString('base64url')}`;
    const comment: YoutubeComment = {
      threadId: parentId ?? id,
      commentId,
      parentId,
      videoId: video.id,
      channelId: video.channelId,
      authorChannelId: author.channelId,
      authorDisplayName: author.displayName,
      textOriginal: text,
      likeCount,
      publishedAt: this.clock.iso(),
    };
    this.comments.push(comment);
    return comment;
  }

  /** One videos.list look at a video by its owner: processing moves on by one poll. */
  poll(video: YoutubeVideo): void {
    if (video.uploadStatus !== 'uploaded') return;
    if (video.pollsLeft > 0) {
      video.pollsLeft -= 1;
      return;
    }
    video.uploadStatus = video.outcome.uploadStatus;
    if (video.outcome.failureReason) video.failureReason = video.outcome.failureReason;
    if (video.outcome.rejectionReason) video.rejectionReason = video.outcome.rejectionReason;
  }
}

// The units bucket keeps the key it always had ("clientId date"); the uploads bucket has its own.
const quotaKey = (clientId: string, ms: number, bucket: QuotaBucket) => `${clientId} ${pacificDate(ms)}${bucket === 'uploads' ? ' uploads' : ''}`;

/** The calendar date in America/Los_Angeles: YouTube's quota day. */
export function pacificDate(ms: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}
