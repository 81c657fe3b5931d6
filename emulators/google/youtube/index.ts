// The YouTube Data API v3 publishing paths (resumable video uploads, videos.list processing states,
// thumbnails.set, commentThreads) of the Google emulator, mounted on its one app by server.ts, with
// the handle tests use to steer and inspect them (`emulator.youtube`).
import type { FastifyInstance } from 'fastify';
import type { FaultQueue } from '../../shared/faults.ts';
import type { GoogleWorld } from '../world.ts';
import { mountApi } from './api.ts';
import { YoutubeState, type CallRecord, type ReceivedChunk, type ThumbnailSet, type UploadStatus, type YoutubeComment, type YoutubeVideo } from './state.ts';
import { mountUploads } from './uploads.ts';

export type { CallRecord, ReceivedChunk, ThumbnailSet, YoutubeComment } from './state.ts';

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
   * The project's daily units (default 10,000), what calls cost (Google's classic table by default),
   * and the model: `classic` (videos.insert 1,600 units of the pool) or `current` (videos.insert
   * counted in a bucket of its own, `uploadCalls` a day, default 100).
   */
  setQuota(quota: { dailyUnits?: number; costs?: Partial<YoutubeState['costs']>; model?: 'classic' | 'current'; uploadCalls?: number }): void;
  /** Units the project (OAuth client) spent in the current Pacific day. */
  quotaUsed(clientId: string): number;
  /** thumbnails.set takes images up to this size (default 2 MB, the v3 reference's figure). */
  setThumbnailLimit(bytes: number): void;
  /** Every thumbnails.set answers 403 forbidden with this message (an unverified channel); undefined: none. */
  refuseThumbnails(message: string | undefined): void;
  /** Uploads end private whatever was asked, as for a Cloud project that has not passed YouTube's audit. */
  lockUploadsToPrivate(locked: boolean): void;
  /** The channel may complete this many more uploads before 400 uploadLimitExceeded. */
  setUploadCap(channelId: string, uploads: number | undefined): void;
}

export function mountYoutube(app: FastifyInstance, world: GoogleWorld, faults: FaultQueue): YoutubeControls {
  const state = new YoutubeState(world.clock);
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
    setQuota: ({ dailyUnits, costs, model, uploadCalls }) => {
      if (dailyUnits !== undefined) state.dailyUnits = dailyUnits;
      if (model) state.model = model;
      if (uploadCalls !== undefined) state.uploadCalls = uploadCalls;
      if (costs) Object.assign(state.costs, costs);
    },
    quotaUsed: (clientId) => state.usedToday(clientId),
    setThumbnailLimit: (bytes) => void (state.thumbnailMaxBytes = bytes),
    refuseThumbnails: (message) => void (state.refuseThumbnails = message),
    lockUploadsToPrivate: (locked) => void (state.lockedToPrivate = locked),
    setUploadCap: (channelId, uploads) => {
      if (uploads === undefined) state.uploadCap.delete(channelId);
      else state.uploadCap.set(channelId, (state.uploadsByChannel.get(channelId) ?? 0) + uploads);
    },
  };
}
