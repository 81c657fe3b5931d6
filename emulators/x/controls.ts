// What tests may do beyond X's API: register apps and users, sign a user in for the consent page,
// seed posts and figures, inject faults, steer media processing and the field vocabulary, move the
// clock; and read what the emulator holds and what it was asked (read-only copies).
import type { Clock } from '../shared/clock.ts';
import type { FaultQueue, FaultSpec } from '../shared/faults.ts';
import type { VocabularySetting } from './validate/description.ts';
import { processingInfo, type AddUserInput, type ProcessingState, type SeedTweetInput, type XApp, type XTweet, type XTweetMetrics, type XUser, type XWorld } from './state.ts';

export interface XMediaView {
  id: string;
  mediaKey: string;
  ownerId: string;
  category: string;
  mediaType?: string;
  size: number;
  finalized: boolean;
  state?: ProcessingState;
  altText?: string;
  /** A video's length in milliseconds, as read from the file or set by setMediaDuration(). */
  videoMs?: number;
}

export interface XCall {
  method: string;
  path: string;
  /** The first value of each query parameter. */
  query: Record<string, string | undefined>;
  /** Every value of each query parameter, in order. */
  queryValues: Record<string, string[]>;
  body: unknown;
  userId: string | undefined;
  status: number;
}

export interface XControls {
  /** Move it forward to expire tokens, finish video processing or reset rate-limit windows. */
  clock: Clock;
  /** Registers a developer app (client id, secret, callback URLs) for the authorization-code flow. */
  addApp(app: XApp): void;
  /** The user who consents on GET /i/oauth2/authorize (it redirects at once: auto-consent). */
  signIn(userId: string): void;
  /** Registers a user and an OAuth 2.0 user access token (plus an optional refresh token). */
  addUser(input: AddUserInput): XUser;
  /** Makes the token answer 401 from now on, as an expired or revoked one does. */
  expireToken(token: string): void;
  /** Every post created, in creation order (deleted ones flagged). */
  tweets(): XTweet[];
  media(): XMediaView[];
  /** A post from outside the API: another user's reply or quote, a repost, an older post. */
  addTweet(input: SeedTweetInput): XTweet;
  /** Sets a post's engagement figures (likes, reposts, impressions, private metrics). */
  setMetrics(tweetId: string, metrics: XTweetMetrics): void;
  /** Sets a user's follower and following counts. */
  setFollowers(userId: string, counts: { followers?: number; following?: number }): void;
  /** Every request behind a user token, in order: method, path, query and JSON body, and the status answered. */
  calls(): XCall[];
  /** Answers the next matching request(s) with this status instead of handling them. */
  failNext(fault: FaultSpec): void;
  /** Pins a video's processing state, overriding the clock-driven progression. */
  setMediaState(mediaId: string, state: ProcessingState): void;
  /** The next video or GIF finalized ends in `failed`. */
  failNextProcessing(): void;
  /** Sets a video's length (seconds) where its bytes carry no movie header X's processing would read. */
  setMediaDuration(mediaId: string, seconds: number): void;
  /** Switches the field vocabulary the query may use from now on (an API that changes under a running client). */
  setFieldVocabulary(setting: VocabularySetting): void;
}

export function createControls(world: XWorld, calls: XCall[], faults: FaultQueue): XControls {
  const { store } = world;
  const mediaOf = (mediaId: string) => {
    const media = store.media.get(mediaId);
    if (!media) throw new Error(`no media ${mediaId}`);
    return media;
  };
  return {
    clock: world.clock,
    addApp: (app) => {
      world.apps.set(app.clientId, structuredClone(app));
    },
    signIn: (userId) => {
      world.signedInUserId = userId;
    },
    addUser: (input) => store.addUser(input),
    expireToken: (token) => store.expireToken(token),
    tweets: () => structuredClone(store.tweets),
    media: () =>
      [...store.media.values()].map((m) => ({
        id: m.id,
        mediaKey: m.mediaKey,
        ownerId: m.ownerId,
        category: m.category,
        mediaType: m.mediaType,
        size: m.size,
        finalized: m.finalized,
        state: processingInfo(world, m)?.state,
        altText: m.altText,
        videoMs: m.videoMs,
      })),
    addTweet: (input) => structuredClone(store.seedTweet(input)),
    setMetrics: (tweetId, metrics) => {
      const tweet = store.tweets.find((t) => t.id === tweetId);
      if (!tweet) throw new Error(`no post ${tweetId}`);
      Object.assign(tweet.metrics, metrics);
    },
    setFollowers: (userId, counts) => {
      const user = store.users.get(userId);
      if (!user) throw new Error(`no user ${userId}`);
      user.followersCount = counts.followers ?? user.followersCount;
      user.followingCount = counts.following ?? user.followingCount;
    },
    calls: () => structuredClone(calls),
    failNext: (fault) => faults.add(fault),
    setMediaState: (mediaId, state) => {
      const media = store.media.get(mediaId);
      if (!media?.processing) throw new Error(`media ${mediaId} has no processing to set`);
      media.processing.pinned = state;
    },
    failNextProcessing: () => {
      world.failNextProcessing = true;
    },
    setMediaDuration: (mediaId, seconds) => {
      mediaOf(mediaId).videoMs = Math.round(seconds * 1000);
    },
    setFieldVocabulary: (setting) => {
      world.fieldVocabulary = setting;
    },
  };
}
