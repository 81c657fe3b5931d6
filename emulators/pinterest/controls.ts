// What tests may do with the Pinterest emulator beyond its API: add users, boards and pins as if made
// earlier, seed analytics, steer video processing, uploads and write limits, and read (as copies)
// every pin, media, API call and token request. None of it has a Pinterest counterpart.
import { randomBytes } from 'node:crypto';
import type { OAuthServer } from '../shared/oauth.ts';
import { numericId, type AccountCounts, type BoardPrivacy, type DailyMetrics, type PinterestBoard, type PinterestCall, type PinterestMedia, type PinterestPin, type PinterestState, type PinterestUser, type TokenRequest } from './state.ts';

export type AddPinterestUserInput = Partial<PinterestUser>;

/** What a test reads and steers of the publishing side. */
export interface PinterestPublishingControls {
  addBoard(input: { ownerId: string; id?: string; name?: string; description?: string | null; privacy?: BoardPrivacy }): PinterestBoard;
  /** A good token of `userId` with these scopes (default: every scope Crier asks for). */
  issueToken(userId: string, scopes?: string[]): string;
  /** Trust this CA certificate (PEM) too when fetching image URLs. */
  trustCa(ca: string): void;
  /** `count` plain image pins on a board, as if created earlier (a board too large to search). */
  addPins(boardId: string, count: number): void;
  /** Every pin created, oldest first (copies). */
  pins(): PinterestPin[];
  /** Every registered video (copies). */
  media(): PinterestMedia[];
  /** Every API call and upload, in order. */
  calls(): PinterestCall[];
  /** After its upload, a video answers `processing` this many polls, then `succeeded` (default 2). */
  setProcessingPolls(polls: number): void;
  /** While held, uploaded videos stay `processing`. */
  holdProcessing(held: boolean): void;
  /** The next uploaded video's processing ends `failed`. */
  failNextVideo(): void;
  /** Upload forms are refused as S3 refuses an expired policy (403 AccessDenied) while set. */
  expireUploads(expired: boolean): void;
  /** At most `limit` writes (POST /v5/pins, /v5/media) per user per window, then 429 code 8; undefined lifts it. */
  limitWrites(limit: { limit: number; windowMs: number } | undefined): void;
  /** A pin made earlier (an import's material): a repin when `parentPinId` is set; `images` > 1 makes a carousel. */
  addPin(input: { boardId: string; description?: string | null; title?: string | null; mediaType?: 'image' | 'video'; images?: number; createdAt?: string; parentPinId?: string }): PinterestPin;
  /** A Pin's figures per day (summed by pins/analytics over the dates asked) and its lifetime ones. */
  setPinAnalytics(pinId: string, days: DailyMetrics[], lifetime?: Record<string, number>): void;
  /** A user's account figures per day (user_account/analytics). */
  setAccountAnalytics(userId: string, days: DailyMetrics[]): void;
  /** A user's profile counts (GET /v5/user_account); unset ones stay 0. */
  setCounts(userId: string, counts: Partial<AccountCounts>): void;
}

export interface PinterestUserControls {
  /** A user; every field has a default, so addUser({}) works. */
  addUser(input?: AddPinterestUserInput): PinterestUser;
  /** Every token call, oldest first. */
  tokenRequests(): TokenRequest[];
}

/** The scopes Crier's Pinterest connect asks for. */
const CRIER_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];

let counter = 0;

/** `cas`: the CA certificates image fetches trust (trustCa adds to it). */
export function pinterestControls(state: PinterestState, oauth: OAuthServer, cas: string[]): PinterestPublishingControls & PinterestUserControls {
  return {
    trustCa: (ca) => void cas.push(ca),
    addBoard: (input) => state.addBoard(input),
    issueToken: (userId, scopes = CRIER_SCOPES) => oauth.issue(userId, 'pinterest-emulator', scopes).accessToken,
    addPins: (boardId, count) => {
      const board = state.boards.get(boardId)!;
      for (let i = 0; i < count; i++) {
        state.pins.push({ id: `${board.id}${i}`, ownerId: board.ownerId, boardId, title: `Pin ${i}`, description: null, link: null, altText: null, mediaType: 'image', mediaSource: {}, files: [], createdAt: state.now() });
      }
    },
    pins: () => structuredClone(state.pins),
    media: () => structuredClone([...state.media.values()]),
    calls: () => structuredClone(state.calls),
    setProcessingPolls: (polls) => void (state.processing.polls = polls),
    holdProcessing: (held) => void (state.processing.held = held),
    failNextVideo: () => void (state.processing.failNext = true),
    expireUploads: (expired) => void (state.uploadsExpired = expired),
    limitWrites: (limit) => void (state.writeLimit = limit),
    addPin: (input) => addPin(state, input),
    setPinAnalytics: (pinId, days, lifetime = {}) => {
      state.pinDays.set(pinId, structuredClone(days));
      state.pinLifetime.set(pinId, { ...lifetime });
    },
    setAccountAnalytics: (userId, days) => void state.accountDays.set(userId, structuredClone(days)),
    setCounts: (userId, counts) => void state.counts.set(userId, { ...state.counts.get(userId), ...counts } as AccountCounts),
    addUser: (input = {}) => addUser(state, input),
    tokenRequests: () => structuredClone(state.tokenRequests),
  };
}

function addPin(state: PinterestState, input: Parameters<PinterestPublishingControls['addPin']>[0]): PinterestPin {
  const board = state.boards.get(input.boardId)!;
  const images = input.images ?? 1;
  const mediaType = input.mediaType === 'video' ? 'video' : images > 1 ? 'multiple_images' : 'image';
  const pin: PinterestPin = {
    id: numericId(8), ownerId: board.ownerId, boardId: board.id, title: input.title ?? null, description: input.description ?? null,
    link: null, altText: null, mediaType, mediaSource: {}, files: Array.from({ length: images }, () => ({ sha256: '', bytes: 0, contentType: 'image/jpeg', from: 'seeded' })),
    createdAt: input.createdAt ?? state.now(), parentPinId: input.parentPinId ?? null,
  };
  state.pins.push(pin);
  return structuredClone(pin);
}

function addUser(state: PinterestState, input: AddPinterestUserInput): PinterestUser {
  counter += 1;
  const accountType = input.accountType ?? 'BUSINESS';
  const user: PinterestUser = {
    id: input.id ?? String(5_000_000_000_000_000 + counter * 7919 + Math.floor(Math.random() * 1000)),
    username: input.username ?? `pinner${counter}_${randomBytes(2).toString('hex')}`,
    accountType,
    businessName: input.businessName === undefined ? (accountType === 'BUSINESS' ? `Business ${counter}` : null) : input.businessName,
    profileImage: input.profileImage === undefined ? `https://i.pinimg.com/600x600_R/${randomBytes(4).toString('hex')}.jpg` : input.profileImage,
    websiteUrl: input.websiteUrl ?? null,
    about: input.about ?? '',
  };
  state.users.set(user.id, user);
  return user;
}
