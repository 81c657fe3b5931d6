// What tests (and the sandbox) may do beyond the API: add accounts with their tokens, revoke a token,
// keep uploads processing (or make images processed in the background too), fail a file's processing,
// answer the next calls 429, shrink the instance's limits; have other accounts reply to, favourite or
// boost a status, set follower counts; and read what the instance holds.
import { randomBytes } from 'node:crypto';
import { DEFAULT_CONFIGURATION, nextId, type Account, type InstanceConfiguration, type MastodonWorld, type StoredMedia, type StoredStatus } from './state.ts';

export interface AddAccountInput {
  username: string;
  displayName?: string;
  /** Default: `read write`. */
  scopes?: string[];
}

export interface MastodonControls {
  addAccount(input: AddAccountInput): Account;
  revokeToken(accountId: string): void;
  /** Every upload answers 202 and stays processing for `polls` GETs (0: images processed at once again). */
  processInBackground(polls: number): void;
  /** New uploads stay processing until released; `false` releases every held one. */
  holdProcessing(hold: boolean): void;
  failProcessing(mediaId: string): void;
  /** The next `count` API calls answer 429 Too many requests, X-RateLimit-Reset `resetInMs` from now (default: the window's end). */
  rateLimitNext(count: number, resetInMs?: number): void;
  /** Replaces parts of the instance's configuration (GET /api/v2/instance). */
  setConfiguration(patch: { statuses?: Partial<InstanceConfiguration['statuses']>; polls?: Partial<InstanceConfiguration['polls']>; media_attachments?: Partial<InstanceConfiguration['media_attachments']> }): void;
  /** An account's statuses, oldest first (deleted ones too, marked). */
  statusesOf(accountId: string): StoredStatus[];
  media(id: string): StoredMedia | undefined;
  /** Every file an account uploaded, attached or not. */
  mediaOf(accountId: string): StoredMedia[];
  /**
   * The next `method url` call (the route as the server declares it, `POST /api/v1/statuses`), after
   * `skip` others, is carried out and its answer held `ms`: a client killed meanwhile never learns it.
   */
  stallAnswer(route: string, ms: number, skip?: number): void;
  /** Moves the instance's clock (Idempotency-Keys expire after an hour). */
  advanceClock(ms: number): void;
  /** Account `accountId` answers status `statusId` (another account commenting), with the parent's visibility unless given. */
  reply(accountId: string, statusId: string, text: string, visibility?: StoredStatus['visibility']): StoredStatus;
  /** Account `accountId` favourites status `statusId` (counted in `favourites_count`). */
  favourite(accountId: string, statusId: string): void;
  /** Account `accountId` boosts status `statusId`: a reblog on its profile, counted in `reblogs_count`. */
  boost(accountId: string, statusId: string): StoredStatus;
  /** The account's `followers_count` and `following_count` (no follower graph is kept). */
  setFollowCounts(accountId: string, followers: number, following: number): void;
}

export function mastodonControls(world: MastodonWorld): MastodonControls {
  return {
    addAccount(input) {
      const account: Account = {
        id: nextId(world), username: input.username, displayName: input.displayName ?? input.username,
        token: randomBytes(32).toString('base64url'), scopes: input.scopes ?? ['read', 'write'], revoked: false, createdAt: world.clock.iso(),
      };
      world.accounts.set(account.id, account);
      return account;
    },
    revokeToken(accountId) {
      world.accounts.get(accountId)!.revoked = true;
    },
    processInBackground(polls) {
      world.processingPolls = polls;
    },
    holdProcessing(hold) {
      world.holdProcessing = hold;
      if (!hold) for (const media of world.media.values()) media.held = false;
    },
    failProcessing(mediaId) {
      world.media.get(mediaId)!.failed = true;
    },
    rateLimitNext(count, resetInMs) {
      world.rateLimited = count;
      world.rateLimitResetMs = resetInMs;
    },
    setConfiguration(patch) {
      world.configuration = {
        statuses: { ...world.configuration.statuses, ...patch.statuses },
        polls: { ...world.configuration.polls, ...patch.polls },
        media_attachments: { ...world.configuration.media_attachments, ...patch.media_attachments },
      };
    },
    statusesOf: (accountId) => [...world.statuses.values()].filter((s) => s.accountId === accountId),
    media: (id) => world.media.get(id),
    mediaOf: (accountId) => [...world.media.values()].filter((m) => m.accountId === accountId),
    stallAnswer(route, ms, skip = 0) {
      world.stalls.set(route, { ms, skip });
    },
    advanceClock: (ms) => world.clock.advance(ms),
    reply(accountId, statusId, text, visibility) {
      const parent = world.statuses.get(statusId)!;
      return addStatus(world, accountId, { text, inReplyToId: statusId, visibility: visibility ?? parent.visibility });
    },
    favourite(accountId, statusId) {
      const status = world.statuses.get(statusId)!;
      status.favouritedBy = [...new Set([...(status.favouritedBy ?? []), accountId])];
    },
    boost: (accountId, statusId) => addStatus(world, accountId, { text: '', reblogOfId: statusId, visibility: 'public' }),
    setFollowCounts(accountId, followers, following) {
      Object.assign(world.accounts.get(accountId)!, { followersCount: followers, followingCount: following });
    },
  };
}

/** A status made by a control (another account's activity), as POST /api/v1/statuses would store it. */
function addStatus(world: MastodonWorld, accountId: string, fields: Pick<StoredStatus, 'text' | 'visibility'> & Partial<StoredStatus>): StoredStatus {
  const status: StoredStatus = {
    id: nextId(world), accountId, spoilerText: '', language: null, sensitive: false, inReplyToId: null, mediaIds: [], poll: null,
    createdAt: world.clock.iso(), idempotencyKey: null, deleted: false, ...fields,
  };
  world.statuses.set(status.id, status);
  return status;
}

export const defaultConfiguration = (): InstanceConfiguration => structuredClone(DEFAULT_CONFIGURATION);
