// What members publish through the emulator: posts, comments and the three kinds of uploaded assets
// (images, documents, videos). Uploaded bytes are never kept: each asset records its size and a
// SHA-256 per part and of the whole, so a 200 MB video costs a few hundred bytes of memory.
import { createHash, type Hash } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { Mention } from './little.ts';
import { TimeIds } from '../shared/ids.ts';

export type AssetKind = 'image' | 'document' | 'video';
export type AssetStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

/** One byte range the client PUT: its position, size, hash and the ETag it got back. */
export interface UploadedPart {
  index: number;
  firstByte: number;
  lastByte: number;
  size: number;
  sha256: string;
  etag: string;
  /** How many times it was PUT (a retry PUTs it again). */
  puts: number;
}

export interface Asset {
  urn: string;
  kind: AssetKind;
  owner: string;
  createdAt: number;
  /** Declared at initializeUpload (videos); null for images and documents. */
  declaredSize: number | null;
  /** Bytes received (the sum of the parts). */
  size: number;
  /** SHA-256 of the whole file once every part is in; null before. */
  sha256: string | null;
  /** What the first bytes say the file is (image/png, application/pdf, video/mp4…), null: unknown. */
  mime: string | null;
  parts: UploadedPart[];
  /** Videos: the token finalizeUpload must echo ('' for a single-part upload, as LinkedIn does). */
  uploadToken: string;
  finalized: boolean;
  /** When processing started (upload done / finalized); null while waiting for the upload. */
  processingSince: number | null;
  /** How long processing lasts, fixed when it starts. Infinity: stuck until released. */
  processingMs: number;
  /** The outcome processing reaches; with a reason when it fails. */
  outcome: { status: 'AVAILABLE' } | { status: 'PROCESSING_FAILED'; reason: string };
  /** Videos: a thumbnail or captions file received on their upload URLs. */
  extras: { thumbnail?: { size: number; sha256: string }; captions?: { size: number; sha256: string } };
  /**
   * The whole-file hash is fed part by part in order: `next` is the first part not yet hashed and
   * `early` holds the bytes of parts that arrived before a gap (only then are bytes kept at all).
   */
  assembly: { hash: Hash | null; next: number; early: Map<number, Buffer> };
}

export interface PostContent {
  media?: { id: string; title?: string; altText?: string };
  multiImage?: { images: { id: string; altText?: string }[] };
  article?: { source: string; title: string; description?: string; thumbnail?: string };
}

export interface LinkedInPost {
  urn: string;
  /** The activity the post's comments hang on (urn:li:activity:…). */
  activityUrn: string;
  author: string;
  /** The commentary as LinkedIn keeps it: cut at the first unescaped reserved character. */
  commentary: string;
  /** The commentary exactly as the client sent it. */
  commentarySent: string;
  /** The mentions parsed from the little-text commentary. */
  mentions: Mention[];
  visibility: string;
  distribution: Record<string, unknown>;
  lifecycleState: string;
  isReshareDisabledByAuthor: boolean;
  content?: PostContent;
  createdAt: number;
  lastModifiedAt: number;
  deleted: boolean;
  /** The request body as received. */
  request: Record<string, unknown>;
  /** What LinkedIn counts of the post (setPostStatistics); comments are counted from `comments`. */
  stats: PostStats;
}

/** A post's counters, as share statistics and member post analytics report them. */
export interface PostStats {
  impressions: number;
  uniqueImpressions: number;
  clicks: number;
  /** Reactions of every kind (LinkedIn's likeCount / REACTION). */
  likes: number;
  shares: number;
  saves: number;
  sends: number;
}

export const noStats = (): PostStats => ({ impressions: 0, uniqueImpressions: 0, clicks: 0, likes: 0, shares: 0, saves: 0, sends: 0 });

export interface LinkedInComment {
  id: string;
  urn: string;
  /** The post's share URN, whatever URN the comment was made on. */
  postUrn: string;
  /** The URN the client commented on (share or activity), as `object` echoes it. */
  object: string;
  actor: string;
  text: string;
  parentComment?: string;
  createdAt: number;
  /** Reactions on the comment (likesSummary). */
  likes: number;
}

export class PublishingStore {
  readonly posts: LinkedInPost[] = [];
  readonly comments: LinkedInComment[] = [];
  readonly assets = new Map<string, Asset>();
  readonly #clock: Clock;
  /** LinkedIn's activity, share and asset ids are time-based: the 19-digit ids seen in urn:li:share:7… */
  readonly #ids: TimeIds;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#ids = new TimeIds(clock);
  }

  nextId(): string {
    return this.#ids.next();
  }

  findPost(urn: string): LinkedInPost | undefined {
    return this.posts.find((p) => (p.urn === urn || p.activityUrn === urn) && !p.deleted);
  }

  /** A comment by its URN, on a post still there. */
  findComment(urn: string): { comment: LinkedInComment; post: LinkedInPost } | undefined {
    const comment = this.comments.find((c) => c.urn === urn);
    const post = comment && this.findPost(comment.postUrn);
    return comment && post ? { comment, post } : undefined;
  }

  /** The comments directly on `target`: a post's top-level comments, or a comment's answers. */
  commentsOn(target: { post: LinkedInPost; comment?: LinkedInComment }): LinkedInComment[] {
    return this.comments.filter((c) => c.postUrn === target.post.urn && c.parentComment === target.comment?.urn);
  }

  newAsset(kind: AssetKind, owner: string, declaredSize: number | null): Asset {
    // Asset ids are opaque strings on LinkedIn (e.g. C4E10AQ…): a prefix per kind plus a time-based id.
    const prefix = kind === 'image' ? 'D4D' : kind === 'document' ? 'D4E' : 'D5F';
    const asset: Asset = {
      urn: `urn:li:${kind}:${prefix}10AQ${Buffer.from(this.nextId()).toString('base64url')}`,
      kind,
      owner,
      createdAt: this.#clock.now(),
      declaredSize,
      size: 0,
      sha256: null,
      mime: null,
      parts: [],
      uploadToken: '',
      finalized: false,
      processingSince: null,
      processingMs: 0,
      outcome: { status: 'AVAILABLE' },
      extras: {},
      assembly: { hash: createHash('sha256'), next: 0, early: new Map() },
    };
    this.assets.set(asset.urn, asset);
    return asset;
  }
}

/** Where an asset is now: processing advances with the emulator clock. */
export function assetStatus(asset: Asset, now: number): AssetStatus {
  if (asset.processingSince === null) return 'WAITING_UPLOAD';
  if (now - asset.processingSince < asset.processingMs) return 'PROCESSING';
  return asset.outcome.status;
}

/** A streaming SHA-256 that also counts bytes and keeps the first few for sniffing. */
export class ByteDigest {
  readonly #hash = createHash('sha256');
  size = 0;
  head = Buffer.alloc(0);

  update(chunk: Buffer): void {
    this.#hash.update(chunk);
    this.size += chunk.length;
    if (this.head.length < 64) this.head = Buffer.concat([this.head, chunk.subarray(0, 64 - this.head.length)]);
  }

  hex(): string {
    return this.#hash.digest('hex');
  }
}

/**
 * Records a received part and feeds the whole-file hash with every part now in order. A part PUT
 * again with other bytes after it was hashed makes the whole-file hash unknowable (null).
 */
export function receivePart(asset: Asset, part: Omit<UploadedPart, 'puts'>, bytes: Buffer | null): void {
  const previous = asset.parts.find((p) => p.index === part.index);
  if (previous) {
    previous.puts += 1;
    if (previous.sha256 !== part.sha256 && part.index < asset.assembly.next) asset.assembly.hash = null;
    Object.assign(previous, { ...part, puts: previous.puts });
  } else {
    asset.parts.push({ ...part, puts: 1 });
    asset.parts.sort((a, b) => a.index - b.index);
  }
  asset.size = asset.parts.reduce((sum, p) => sum + p.size, 0);
  const { assembly } = asset;
  if (bytes && part.index >= assembly.next) assembly.early.set(part.index, bytes);
  while (assembly.early.has(assembly.next)) {
    assembly.hash?.update(assembly.early.get(assembly.next)!);
    assembly.early.delete(assembly.next);
    assembly.next += 1;
  }
}

/** Closes the whole-file hash once every one of `partCount` parts is in. */
export function sealAsset(asset: Asset, partCount: number): void {
  if (asset.assembly.next === partCount && asset.assembly.hash) asset.sha256 = asset.assembly.hash.digest('hex');
  asset.assembly.hash = null;
}
