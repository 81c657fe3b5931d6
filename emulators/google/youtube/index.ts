// The YouTube Data API v3 paths of the Google emulator — publishing (resumable video uploads,
// videos.list processing states, thumbnails.set, commentThreads.insert), channels.list, and what
// engagement calls (videos.delete, playlistItems, comment threads and replies, statistics) —
// mounted on its one app by server.ts, with the handle tests use to steer and inspect them
// (`emulator.youtube`).
import type { FastifyInstance } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import type { GoogleWorld } from '../state/world.ts';
import { mountApi } from './api.ts';
import { randomBytes } from 'node:crypto';
import { YoutubeState, type CallRecord, type QuotaBucket, type ReceivedChunk, type ThumbnailSet, type UploadStatus, type YoutubeComment, type YoutubeVideo } from './state.ts';
import { mountUploads } from './uploads.ts';

export type { CallRecord, QuotaBucket, ReceivedChunk, ThumbnailSet, YoutubeComment } from './state.ts';

/** A video as tests see it: what it was created with, its state and the hash of its bytes. */
export type VideoView = Omit<YoutubeVideo, 'pollsLeft' | 'outcome'>;

export interface SessionView {
  uploadId: string;
  channelId: string;
  total: number | undefined;
  received: number;
  /** Byte ranges taken, in arrival order (a range sent again is not listed twice). */
  chunks: ReceivedChunk[];
  /** Status queries answered (`Content-Range: bytes *\/TOTAL`). */
  queries: number;
  videoId: string | undefined;
}

/** What tests and the sandbox control and inspect of YouTube on the Google emulator (`emulator.youtube`). */
export interface YoutubeControls {
  videos(): VideoView[];
  sessions(): SessionView[];
  comments(videoId?: string): YoutubeComment[];
  thumbnailSets(videoId?: string): ThumbnailSet[];
  /** Every YouTube call, in arrival order, with the status answered. */
  calls(): CallRecord[];
  /** videos.list answers `uploaded` this many times before the outcome (default 1). */
  setProcessingPolls(polls: number): void;
  /** The next video to complete ends `failed` or `rejected` with this reason instead of `processed`. */
  failNextVideo(outcome: { uploadStatus: Extract<UploadStatus, 'failed' | 'rejected' | 'deleted'>; failureReason?: string; rejectionReason?: string }): void;
  /** The next session holds its answer to chunk `index` (0-based) for `ms` after taking its bytes. */
  holdAfterChunk(index: number, ms: number): void;
  /**
   * The project's daily buckets (determine_quota_cost): `uploadCalls` videos.insert calls (default
   * 100, 1 each) and `dailyUnits` units for every other call (default 10,000), and what those cost.
   */
  setQuota(quota: { dailyUnits?: number; uploadCalls?: number; costs?: Partial<YoutubeState['costs']> }): void;
  /** What the project (OAuth client) spent in the current Pacific day: units (default), or videos.insert calls. */
  quotaUsed(clientId: string, bucket?: QuotaBucket): number;
  /** thumbnails.set takes images up to this size (default 50 MB, the v3 reference's figure since 2026-09-14; 2 MB before). */
  setThumbnailLimit(bytes: number): void;
  /** Every thumbnails.set answers 403 forbidden with this message (an unverified channel); undefined: none. */
  refuseThumbnails(message: string | undefined): void;
  /**
   * Uploads end with this privacy whatever was asked (a test switch: since the 2026-11-02 revision
   * YouTube no longer makes an unverified project's uploads private; a video can still change privacy
   * on YouTube's side). undefined: what was asked.
   */
  applyPrivacy(privacyStatus: 'public' | 'private' | 'unlisted' | undefined): void;
  /** The channel may complete this many more uploads before 400 uploadLimitExceeded. */
  setUploadCap(channelId: string, uploads: number | undefined): void;
  /** A processed video the channel already has (no upload): its id. `publishedAt` defaults to now. */
  addVideo(channelId: string, video: { title: string; description?: string; privacyStatus?: string; publishedAt?: string }): string;
  /**
   * Someone comments on the video (another channel by default), or answers top-level comment
   * `parentId`: the comment's id. `authorDisplayName` is what YouTube shows ("@handle").
   */
  addComment(videoId: string, comment: { text: string; authorChannelId?: string; authorDisplayName?: string; parentId?: string; likeCount?: number }): string;
  /** The video's statistics.viewCount and likeCount. */
  setVideoStats(videoId: string, stats: { viewCount?: number; likeCount?: number }): void;
  /** The channel's subscriberCount, or hidden (hiddenSubscriberCount: the count left out). */
  setSubscribers(channelId: string, count: number, hidden?: boolean): void;
}

export function mountYoutube(app: FastifyInstance, world: GoogleWorld, faults: FaultQueue): YoutubeControls {
  const state = new YoutubeState(world.clock);
  const videoOf = (videoId: string) => {
    const video = state.video(videoId);
    if (!video) throw new Error(`no YouTube video ${videoId}`);
    return video;
  };
  mountUploads(app, world, state, faults);
  mountApi(app, world, state, faults);
  return {
    videos: () => [...state.videos.values()].map(({ pollsLeft: _p, outcome: _o, ...video }) => structuredClone(video)),
    sessions: () => [...state.sessions.values()].map((s) => ({
      uploadId: s.uploadId, channelId: s.channelId, total: s.total, received: s.received, chunks: [...s.chunks], queries: s.queries, videoId: s.videoId,
    })),
    comments: (videoId) => state.comments.filter((c) => videoId === undefined || c.videoId === videoId).map((c) => ({ ...c })),
    thumbnailSets: (videoId) => state.thumbnailSets.filter((t) => videoId === undefined || t.videoId === videoId).map((t) => ({ ...t })),
    calls: () => state.calls.map((c) => ({ ...c })),
    setProcessingPolls: (polls) => void (state.processingPolls = polls),
    failNextVideo: (outcome) => void (state.nextOutcome = outcome),
    holdAfterChunk: (index, ms) => void (state.nextHold = { index, ms }),
    setQuota: ({ dailyUnits, costs, uploadCalls }) => {
      if (dailyUnits !== undefined) state.dailyUnits = dailyUnits;
      if (uploadCalls !== undefined) state.uploadCalls = uploadCalls;
      if (costs) Object.assign(state.costs, costs);
    },
    quotaUsed: (clientId, bucket) => state.usedToday(clientId, bucket),
    setThumbnailLimit: (bytes) => void (state.thumbnailMaxBytes = bytes),
    refuseThumbnails: (message) => void (state.refuseThumbnails = message),
    applyPrivacy: (privacyStatus) => void (state.privacyOverride = privacyStatus),
    setUploadCap: (channelId, uploads) => {
      if (uploads === undefined) state.uploadCap.delete(channelId);
      else state.uploadCap.set(channelId, (state.uploadsByChannel.get(channelId) ?? 0) + uploads);
    },
    addVideo: (channelId, video) => state.seedVideo(channelId, video).id,
    addComment: (videoId, { text, authorChannelId, authorDisplayName, parentId, likeCount }) => {
      const video = videoOf(videoId);
      if (parentId !== undefined && !state.comments.some((c) => c.commentId === parentId && c.parentId === null && c.videoId === videoId)) {
        throw new Error(`${parentId} is not a top-level comment of video ${videoId}`);
      }
      const channelId = authorChannelId ?? `UC${randomBytes(16).toString('base64url').slice(0, 22)}`;
      return state.addComment(video, { channelId, displayName: authorDisplayName ?? `@viewer-${channelId.slice(2, 8)}` }, text, parentId ?? null, likeCount ?? 0).commentId;
    },
    setVideoStats: (videoId, stats) => {
      const video = videoOf(videoId);
      if (stats.viewCount !== undefined) video.viewCount = stats.viewCount;
      if (stats.likeCount !== undefined) video.likeCount = stats.likeCount;
    },
    setSubscribers: (channelId, count, hidden = false) => void state.subscribers.set(channelId, { count, hidden }),
  };
}
