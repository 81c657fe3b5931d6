// What tests may do beyond the API: ask the Vimeo emulator about its publishing side (copies, never
// the live state) and turn its switches: upload quotas, transcode speed and failures, a stalled tus
// answer, the rate limit, another member's comment.
import type { TusHead, TusLog, TusPatch } from './routes/tus.ts';
import { videoLink } from './objects.ts';
import { legacyStatus, uploadStatus, type Status, type VideoStore } from './state.ts';

export interface VimeoVideoView {
  id: string;
  uri: string;
  ownerId: string;
  name: string;
  description: string | null;
  privacy: { view: string; embed: string; comments: string };
  link: string;
  /** Upload-Length, as POST /me/videos declared it. */
  size: number;
  /** Bytes received so far (Upload-Offset). */
  received: number;
  /** sha256 of every byte received, once the upload is complete. */
  sha256: string | null;
  uploadStatus: Status;
  transcode: Status | null;
  status: string;
  /** Top-level comments and replies, oldest first; a reply names its comment (`parentId`). */
  comments: { id: string; uri: string; userId: string; text: string; parentId: string | null }[];
  plays: number | null;
  likes: number;
  /** Deleted by its owner (DELETE /videos/{id}): no longer served. */
  deleted: boolean;
}

export interface RateLimit {
  /** Calls a token may make per window. */
  limit: number;
  windowMs: number;
}

export interface PublishingControls {
  /** Every video created, oldest first. */
  videos(): VimeoVideoView[];
  /** Every tus PATCH received, in order: the offset it claimed, the bytes taken in, the answer. */
  patches(): TusPatch[];
  /** Every tus HEAD received, in order, with the offset it answered. */
  heads(): TusHead[];
  /** A member's upload quota: bytes still free (and the maximum, and the periodic reset date). */
  setUploadQuota(userId: string, quota: { free: number; max?: number; resetDate?: string | null }): void;
  /** How many status reads a transcode stays in_progress before it completes (default 2). */
  setTranscodeReads(reads: number): void;
  /** The next completed upload's transcode ends in error. */
  failNextTranscode(): void;
  /** A video's transcode in progress completes now. */
  completeTranscode(videoId: string): void;
  /**
   * The next request matching `method` and `path` (a prefix, or a RegExp) is handled — a video
   * created, a chunk taken in — and answered only `ms` later: a worker killed waiting for the answer.
   */
  stallNext(stall: Stall): void;
  /** Calls per window and token on the API (not the tus host); default 1,000 a minute. */
  setRateLimit(limit: RateLimit): void;
  /** Another member comments on the video, or answers its top-level comment `parentId`: the comment's id. */
  addComment(videoId: string, comment: { userId: string; text: string; parentId?: string }): string;
  /** The video's figures: stats.plays (null: not counted) and its likes. */
  setVideoStats(videoId: string, stats: { plays?: number | null; likes?: number }): void;
}

export interface Stall {
  method: string;
  path: string | RegExp;
  /** tus PATCH only: the one claiming this Upload-Offset. */
  uploadOffset?: number;
  ms: number;
}

/** Answers held back after handling (stallNext), each taken once by the first request it matches. */
export class Stalls {
  #pending: Stall[] = [];

  add(stall: Stall): void {
    this.#pending.push({ ...stall });
  }

  /** The ms to hold this request's answer (0: none), the stall consumed. */
  take(method: string, path: string, uploadOffset?: string): number {
    const index = this.#pending.findIndex((s) => s.method.toUpperCase() === method.toUpperCase()
      && (typeof s.path === 'string' ? path.startsWith(s.path) : s.path.test(path))
      && (s.uploadOffset === undefined || String(s.uploadOffset) === uploadOffset));
    if (index < 0) return 0;
    return this.#pending.splice(index, 1)[0]!.ms;
  }
}

export function publishingControls(store: VideoStore, tus: TusLog, rate: { current: RateLimit }, stalls: Stalls): PublishingControls {
  const videoOf = (videoId: string) => {
    const video = store.videos.get(videoId);
    if (!video) throw new Error(`no Vimeo video ${videoId}`);
    return video;
  };
  return {
    videos: () => [...store.videos.values(), ...store.deleted].map((v) => ({
      id: v.id,
      uri: `/videos/${v.id}`,
      ownerId: v.ownerId,
      name: v.name,
      description: v.description,
      privacy: { ...v.privacy },
      link: videoLink(v),
      size: v.size,
      received: v.offset,
      sha256: v.sha256,
      uploadStatus: uploadStatus(v),
      transcode: v.transcode,
      status: legacyStatus(v),
      comments: v.comments.map((c) => ({ id: c.id, uri: `/videos/${v.id}/comments/${c.id}`, userId: c.userId, text: c.text, parentId: c.parentId })),
      plays: v.plays,
      likes: v.likes,
      deleted: store.deleted.includes(v),
    })),
    patches: () => tus.patches.map((p) => ({ ...p })),
    heads: () => tus.heads.map((h) => ({ ...h })),
    setUploadQuota: (userId, quota) => {
      const current = store.quotaOf(userId);
      store.quotas.set(userId, { free: quota.free, max: quota.max ?? current.max, resetDate: quota.resetDate === undefined ? current.resetDate : quota.resetDate });
    },
    setTranscodeReads: (reads) => void (store.transcodeReads = reads),
    failNextTranscode: () => void (store.failTranscodes += 1),
    completeTranscode: (videoId) => {
      const video = store.videos.get(videoId);
      if (video?.transcode !== 'in_progress') throw new Error(`video ${videoId} is not transcoding`);
      video.transcode = 'complete';
    },
    stallNext: (stall) => stalls.add(stall),
    setRateLimit: (limit) => void (rate.current = { ...limit }),
    addComment: (videoId, { userId, text, parentId }) => {
      const video = videoOf(videoId);
      if (parentId !== undefined && !store.topLevel(video, parentId)) throw new Error(`${parentId} is not a top-level comment of video ${videoId}`);
      return store.addComment(video, userId, text, parentId ?? null).id;
    },
    setVideoStats: (videoId, stats) => {
      const video = videoOf(videoId);
      if (stats.plays !== undefined) video.plays = stats.plays;
      if (stats.likes !== undefined) video.likes = stats.likes;
    },
  };
}
