// The videos the Vimeo emulator holds: what POST /me/videos created (name, description, privacy, the
// tus upload's declared size), what the tus endpoint received (only a running sha256 and a byte count:
// a 300 MB upload is never held), the transcode that follows a complete upload (in_progress for a
// configurable number of reads, then complete, or error on demand), the comments, and the members'
// upload quotas, the figures a video shows (stats.plays, likes). The JSON shapes follow the video,
// comment and user schemas of vimeo/openapi api.yaml. Comments are one tier deep: a reply names its
// top-level comment (`parentId`) and is listed only under /videos/{id}/comments/{cid}/replies.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';

export type Status = 'in_progress' | 'complete' | 'error';

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

export function videoLink(video: VimeoVideo): string {
  return video.privacy.view === 'unlisted' ? `https://vimeo.com/${video.id}/${video.unlistedHash}` : `https://vimeo.com/${video.id}`;
}

/** The video object as the owner reads it (the fields Crier uses, and enough others to look real). */
export function videoJson(video: VimeoVideo, origin: string, user: Record<string, unknown> | null): Record<string, unknown> {
  return {
    uri: `/videos/${video.id}`,
    name: video.name,
    description: video.description,
    type: 'video',
    link: videoLink(video),
    duration: 0,
    created_time: video.createdTime,
    privacy: { view: video.privacy.view, embed: video.privacy.embed, comments: video.privacy.comments, download: false, add: true },
    status: legacyStatus(video),
    upload: {
      status: uploadStatus(video),
      approach: 'tus',
      upload_link: `${origin}/tus/files/${video.uploadToken}`,
      size: video.size,
      form: null,
      complete_uri: null,
      link: null,
      redirect_url: null,
    },
    transcode: video.transcode ? { status: video.transcode } : null,
    user,
    stats: { plays: video.plays },
    metadata: {
      connections: {
        comments: { uri: `/videos/${video.id}/comments`, options: ['GET', 'POST'], total: video.comments.length },
        likes: { uri: `/videos/${video.id}/likes`, options: ['GET'], total: video.likes },
      },
    },
    resource_key: `video-${video.id}`,
  };
}

/** A comment; `replies` is how many answer it (0 for a reply). */
export function commentJson(comment: VimeoComment, user: Record<string, unknown> | null, replies: number): Record<string, unknown> {
  return {
    uri: `/videos/${comment.videoId}/comments/${comment.id}`,
    type: 'video',
    text: comment.text,
    created_on: comment.createdOn,
    user,
    metadata: { connections: { replies: { uri: `/videos/${comment.videoId}/comments/${comment.id}/replies`, options: ['GET', 'POST'], total: replies } } },
    resource_key: `comment-${comment.id}`,
  };
}

/**
 * `?fields=uri,upload.status`: only the named fields, dotted paths reaching into objects (Vimeo's
 * field filtering); without the parameter, everything.
 */
export function pickFields(value: Record<string, unknown>, fields: string | undefined): Record<string, unknown> {
  if (!fields) return value;
  const out: Record<string, unknown> = {};
  for (const path of fields.split(',').map((f) => f.trim()).filter(Boolean)) {
    let keys = path.split('.');
    let from: unknown = value;
    for (const [i, key] of keys.entries()) {
      from = from && typeof from === 'object' ? (from as Record<string, unknown>)[key] : undefined;
      // A null object on the way (transcode: null before the upload ends) is answered as that null.
      if (from === null) keys = keys.slice(0, i + 1);
      if (from === null || from === undefined) break;
    }
    if (from === undefined) continue;
    let into = out;
    keys.slice(0, -1).forEach((key) => {
      if (typeof into[key] !== 'object' || into[key] === null) into[key] = {};
      into = into[key] as Record<string, unknown>;
    });
    into[keys.at(-1)!] = from;
  }
  return out;
}
