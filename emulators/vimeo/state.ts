// What the Vimeo emulator remembers: the members, and the videos — what POST /me/videos created
// (name, description, privacy, the tus upload's declared size), what the tus endpoint received (only a
// running sha256 and a byte count: a 300 MB upload is never held), the transcode that follows a
// complete upload (in_progress for a configurable number of reads, then complete, or error on demand),
// the comments, the members' upload quotas, the figures a video shows (stats.plays, likes). Comments
// are one tier deep: a reply names its top-level comment (`parentId`) and is listed only under
// /videos/{id}/comments/{cid}/replies. Who may see a video follows its `privacy.view` (`canView`).
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';

export type Status = 'in_progress' | 'complete' | 'error';

export interface VimeoUser {
  /** Numeric id, as in uri "/users/<id>". */
  id: string;
  name: string;
  /** The path of https://vimeo.com/<username>: a custom URL, or "user<id>" without one. */
  username: string;
  /** Base link of a custom portrait (sizes get "_<w>x<h>"), or null for Vimeo's default picture. */
  pictureBase: string | null;
  /** The plan: 'basic' (Vimeo Basic: no unlisted or disable view), 'plus', 'pro', 'business'... */
  account: string;
  /** metadata.connections.followers/following totals. */
  followers: number;
  following: number;
}

/** One request as the emulator received it: what the quirk tests check. */
export interface VimeoRequestLog {
  method: string;
  path: string;
  accept: string | undefined;
  contentType: string | undefined;
  /** The scheme of the Authorization header: 'basic', 'bearer' or 'none'. */
  auth: 'basic' | 'bearer' | 'none' | 'other';
  /** The query string's parameters (`fields`, `page`...). */
  query: Record<string, string | undefined>;
  /** A JSON body as parsed, or undefined. */
  json: unknown;
}

export interface VimeoComment {
  id: string;
  videoId: string;
  userId: string;
  text: string;
  createdOn: string;
  /** The top-level comment this one answers; null for a top-level comment. */
  parentId: string | null;
}

export interface VimeoVideo {
  id: string;
  ownerId: string;
  name: string;
  description: string | null;
  privacy: { view: string; embed: string; comments: string };
  /** The unlisted hash: an unlisted video's link carries it. */
  unlistedHash: string;
  /** Upload-Length: the size declared at creation. */
  size: number;
  /** Upload-Offset: bytes received so far. */
  offset: number;
  uploadToken: string;
  /** Running digest of the bytes received, in order; finished into sha256 once offset = size. */
  digest: Hash;
  sha256: string | null;
  /** GET /videos/{id} reads left before a transcode in progress completes. */
  transcodeReadsLeft: number;
  transcode: Status | null;
  createdTime: string;
  /** Top-level comments and their replies, oldest first. */
  comments: VimeoComment[];
  /** stats.plays: null until Vimeo counts (api.yaml: nullable). */
  plays: number | null;
  likes: number;
}

export interface UploadQuota {
  /** Bytes the member may still upload (upload_quota.space.free). */
  free: number;
  max: number;
  /** When the periodic quota resets (ISO), or null for a lifetime quota. */
  resetDate: string | null;
}

/** Vimeo Basic's 5 GB (the OpenAPI example of upload_quota.space.max). */
const DEFAULT_QUOTA_BYTES = 5_368_709_120;

export class VideoStore {
  readonly videos = new Map<string, VimeoVideo>();
  readonly byUploadToken = new Map<string, VimeoVideo>();
  readonly quotas = new Map<string, UploadQuota>();
  /** Videos their owner deleted, kept for inspection only. */
  readonly deleted: VimeoVideo[] = [];
  /** How many reads of a video's status answer in_progress after its upload completed. */
  transcodeReads = 2;
  /** The next uploads to finish get transcode.status error instead. */
  failTranscodes = 0;
  readonly #clock: Clock;
  #nextVideo = 900_000_001;
  #nextComment = 20_000_001;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  quotaOf(userId: string): UploadQuota {
    let quota = this.quotas.get(userId);
    if (!quota) {
      quota = { free: DEFAULT_QUOTA_BYTES, max: DEFAULT_QUOTA_BYTES, resetDate: null };
      this.quotas.set(userId, quota);
    }
    return quota;
  }

  create(input: { ownerId: string; name: string; description: string | null; view: string; embed: string; comments: string; size: number }): VimeoVideo {
    const video: VimeoVideo = {
      id: String(this.#nextVideo++),
      ownerId: input.ownerId,
      name: input.name,
      description: input.description,
      privacy: { view: input.view, embed: input.embed, comments: input.comments },
      unlistedHash: randomBytes(5).toString('hex'),
      size: input.size,
      offset: 0,
      uploadToken: randomBytes(16).toString('hex'),
      digest: createHash('sha256'),
      sha256: null,
      transcodeReadsLeft: 0,
      transcode: null,
      createdTime: new Date(this.#clock.now()).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      comments: [],
      plays: 0,
      likes: 0,
    };
    this.videos.set(video.id, video);
    this.byUploadToken.set(video.uploadToken, video);
    // The space is taken when the upload is created: a second creation cannot count on it.
    this.quotaOf(input.ownerId).free -= input.size;
    return video;
  }

  /** Bytes received at the current offset; the last ones start the transcode. */
  receive(video: VimeoVideo, chunk: Buffer): void {
    video.digest.update(chunk);
    video.offset += chunk.length;
    if (video.offset !== video.size) return;
    video.sha256 = video.digest.digest('hex');
    if (this.failTranscodes > 0) {
      this.failTranscodes -= 1;
      video.transcode = 'error';
      return;
    }
    video.transcode = 'in_progress';
    video.transcodeReadsLeft = this.transcodeReads;
  }

  /** A status read: a transcode in progress moves one read closer to complete. */
  observe(video: VimeoVideo): void {
    if (video.transcode !== 'in_progress') return;
    if (video.transcodeReadsLeft <= 0) video.transcode = 'complete';
    else video.transcodeReadsLeft -= 1;
  }

  addComment(video: VimeoVideo, userId: string, text: string, parentId: string | null = null): VimeoComment {
    const createdOn = new Date(this.#clock.now()).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const comment: VimeoComment = { id: String(this.#nextComment++), videoId: video.id, userId, text, createdOn, parentId };
    video.comments.push(comment);
    return comment;
  }

  /** A top-level comment of the video (a reply's id is not one: replies are one tier deep). */
  topLevel(video: VimeoVideo, commentId: string): VimeoComment | undefined {
    return video.comments.find((c) => c.id === commentId && c.parentId === null);
  }

  /** A member deleted a video: it, its comments and its upload link are gone. */
  remove(video: VimeoVideo): void {
    this.videos.delete(video.id);
    this.byUploadToken.delete(video.uploadToken);
    this.deleted.push(video);
  }
}

/**
 * Whether `memberId` may read the video (and its comments) through the API. The owner always may;
 * another member may when `privacy.view` is `anybody` (everyone) or `users` (any logged-in Vimeo
 * member: every API caller here is one). The other views keep it from them: `nobody` and `disable`
 * (hidden on Vimeo), `contacts` (the emulator has no contacts), `password` and `unlisted` (the
 * emulator takes neither a video password nor an unlisted hash on the API).
 */
export function canView(video: VimeoVideo, memberId: string): boolean {
  return video.ownerId === memberId || OPEN_VIEWS.has(video.privacy.view);
}

const OPEN_VIEWS = new Set(['anybody', 'users']);

/**
 * Whether `memberId` may comment, or why not: `privacy.comments` `nobody` closes the section to all
 * (3413), `contacts` to all but the owner here (3412: the emulator has no contacts).
 */
export function commentRefusal(video: VimeoVideo, memberId: string): 'disabled' | 'not_allowed' | undefined {
  if (video.privacy.comments === 'nobody') return 'disabled';
  if (video.ownerId !== memberId && video.privacy.comments !== 'anybody') return 'not_allowed';
  return undefined;
}

/** upload.status: complete once every byte arrived (an error transcode keeps it complete). */
export function uploadStatus(video: VimeoVideo): Status {
  return video.offset === video.size ? 'complete' : 'in_progress';
}

/** The legacy `status` field, derived as Vimeo documents its values. */
export function legacyStatus(video: VimeoVideo): string {
  if (video.offset < video.size) return 'uploading';
  if (video.transcode === 'error') return 'transcoding_error';
  return video.transcode === 'complete' ? 'available' : 'transcoding';
}
