// Everything the Pinterest emulator remembers beyond the shared OAuthServer's apps and tokens: users,
// token requests, boards, pins, registered video media with their uploads (sha256 and byte count
// only) and processing, analytics a test seeded, and every API call in order — what controls.ts
// lets tests read.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';

export type BoardPrivacy = 'PUBLIC' | 'PROTECTED' | 'SECRET';

export interface PinterestBoard {
  id: string;
  ownerId: string;
  name: string;
  description: string | null;
  privacy: BoardPrivacy;
  createdAt: string;
}

/** A file Pinterest received or fetched: never its bytes. */
export interface ReceivedFile {
  sha256: string;
  bytes: number;
  contentType: string;
  /** Where it was fetched from (image_url, cover_image_url), or how it came (base64, upload). */
  from: string;
}

export type MediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

export interface PinterestMedia {
  id: string;
  ownerId: string;
  status: MediaStatus;
  uploadParameters: Record<string, string>;
  /** The file the upload URL received (the last accepted form). */
  upload?: ReceivedFile;
  uploads: number;
  /** Status polls left before processing succeeds. */
  pollsLeft: number;
  /** Processing ends as `failed`. */
  fails: boolean;
}

export interface PinterestPin {
  id: string;
  ownerId: string;
  boardId: string;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  /** image, multiple_images or video. */
  mediaType: string;
  /** The request's media_source, base64 data replaced by what it held. */
  mediaSource: Record<string, unknown>;
  /** Every image or cover Pinterest fetched or decoded for this pin, in order. */
  files: ReceivedFile[];
  createdAt: string;
  /** The Pin this one was saved from (a repin), as Pinterest's `parent_pin_id`. */
  parentPinId?: string | null;
}

/** One day of a Pin's or an account's figures, under Pinterest's metric names (IMPRESSION, SAVE…). */
export interface DailyMetrics {
  /** UTC, YYYY-MM-DD. */
  date: string;
  metrics: Record<string, number>;
}

/** What the profile counts of GET /v5/user_account say. */
export interface AccountCounts {
  follower_count: number;
  following_count: number;
  pin_count: number;
  board_count: number;
  monthly_views: number;
}

/** One API call as received, in order. */
export interface PinterestCall {
  method: string;
  path: string;
  status: number;
  /** The user the bearer token belongs to, when it is good. */
  userId?: string;
  /** The query string's parameters (first value each). */
  query?: Record<string, string | undefined>;
}

export const fileOf = (bytes: Buffer, contentType: string, from: string): ReceivedFile => ({
  sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, contentType, from,
});

let sequence = 0;
/** Numeric ids, as Pinterest's are (pattern ^\d+$). */
export const numericId = (prefix: number) => `${prefix}${String(Date.now()).slice(-9)}${String(++sequence).padStart(5, '0')}`;

export interface ProcessingSettings {
  /** GET /v5/media/{id} answers `processing` this many times after the upload, then `succeeded`. */
  polls: number;
  /** While true, uploaded media stay `processing` (a test kills a worker in the meantime). */
  held: boolean;
  /** The next uploaded video ends `failed`. */
  failNext: boolean;
}

export type PinterestAccountType = 'BUSINESS' | 'PINNER';

export interface PinterestUser {
  id: string;
  username: string;
  accountType: PinterestAccountType;
  businessName: string | null;
  profileImage: string | null;
  websiteUrl: string | null;
  about: string;
}

/** One call to the token endpoint as received (form fields, never the app secret). */
export interface TokenRequest {
  grant: string | null;
  form: Record<string, string>;
  /** The app authenticated with HTTP Basic. */
  basic: boolean;
}

export class PinterestState {
  readonly users = new Map<string, PinterestUser>();
  readonly tokenRequests: TokenRequest[] = [];
  readonly boards = new Map<string, PinterestBoard>();
  readonly pins: PinterestPin[] = [];
  readonly media = new Map<string, PinterestMedia>();
  readonly calls: PinterestCall[] = [];
  /** Each Pin's days of figures (pins/analytics sums them over the dates asked). */
  readonly pinDays = new Map<string, DailyMetrics[]>();
  /** Each Pin's lifetime figures (TOTAL_COMMENTS, TOTAL_REACTIONS). */
  readonly pinLifetime = new Map<string, Record<string, number>>();
  /** Each user's days of account figures (user_account/analytics). */
  readonly accountDays = new Map<string, DailyMetrics[]>();
  /** Each user's profile counts; zeros until set. */
  readonly counts = new Map<string, AccountCounts>();
  readonly processing: ProcessingSettings = { polls: 2, held: false, failNext: false };
  /** Upload forms are refused as expired (S3's "Policy expired") while true. */
  uploadsExpired = false;
  /** Writes (pins, media) a user may make in a window; undefined: unlimited. */
  writeLimit: { limit: number; windowMs: number } | undefined;
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Pinterest writes created_at in UTC without a zone: "2022-10-13T01:40:29". */
  now(): string {
    return new Date(this.#clock.now()).toISOString().slice(0, 19);
  }

  addBoard(input: { ownerId: string; id?: string; name?: string; description?: string | null; privacy?: BoardPrivacy }): PinterestBoard {
    const board: PinterestBoard = {
      id: input.id ?? numericId(9),
      ownerId: input.ownerId,
      name: input.name ?? `Board ${this.boards.size + 1}`,
      description: input.description ?? null,
      privacy: input.privacy ?? 'PUBLIC',
      createdAt: this.now(),
    };
    this.boards.set(board.id, board);
    return board;
  }

  /** A user's profile counts, zeros where a test set none. */
  countsOf(userId: string): AccountCounts {
    return { board_count: 0, pin_count: 0, follower_count: 0, following_count: 0, monthly_views: 0, ...this.counts.get(userId) };
  }

  boardsOf(userId: string): PinterestBoard[] {
    return [...this.boards.values()].filter((b) => b.ownerId === userId);
  }

  registerMedia(ownerId: string): PinterestMedia {
    const id = numericId(7);
    const media: PinterestMedia = {
      id,
      ownerId,
      status: 'registered',
      // The fields of an S3 POST policy, as /v5/media hands them out: the form must carry them back.
      uploadParameters: {
        'x-amz-date': new Date(this.#clock.now()).toISOString().replace(/[-:]|\.\d+/g, ''),
        'x-amz-signature': randomBytes(32).toString('hex'),
        'x-amz-security-token': randomBytes(24).toString('base64'),
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        key: `uploads/${randomBytes(2).toString('hex')}/${randomBytes(2).toString('hex')}/3:video:${ownerId}:${id}`,
        policy: Buffer.from(JSON.stringify({ expiration: new Date(this.#clock.now() + 3600_000).toISOString() })).toString('base64'),
        'x-amz-credential': `ASIAEMULATOR/${new Date(this.#clock.now()).toISOString().slice(0, 10).replace(/-/g, '')}/us-east-1/s3/aws4_request`,
        'Content-Type': 'multipart/form-data',
      },
      uploads: 0,
      pollsLeft: 0,
      fails: false,
    };
    this.media.set(id, media);
    return media;
  }

  /** The upload URL accepted a file for `media`: processing begins. */
  uploaded(media: PinterestMedia, file: ReceivedFile): void {
    media.upload = file;
    media.uploads += 1;
    media.status = 'processing';
    media.pollsLeft = this.processing.polls;
    media.fails = this.processing.failNext;
    this.processing.failNext = false;
  }

  /** GET /v5/media/{id}: one poll of its processing. */
  poll(media: PinterestMedia): MediaStatus {
    if (media.status !== 'processing' || this.processing.held) return media.status;
    if (media.pollsLeft > 0) media.pollsLeft -= 1;
    else media.status = media.fails ? 'failed' : 'succeeded';
    return media.status;
  }
}
