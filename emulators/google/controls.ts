// What tests and the sandbox may do to the Google emulator beyond Google's API, and what they may
// read of it: the OAuth controls every emulator shares, Google's own (users, channels, Business
// accounts and locations, granular consent, revoking a user's grants), and the YouTube and Business
// handles of youtube/index.ts and business/index.ts.
import type { FaultQueue } from '../shared/faults.ts';
import type { RunningServer } from '../shared/http.ts';
import { oauthControls, type OAuthEmulatorControls } from '../shared/oauth.ts';
import type { BusinessControls } from './business/index.ts';
import { revokeGrant } from './routes/oauth.ts';
import type { AddBusinessAccountInput, AddLocationInput, AddUserInput, GoogleBusinessAccount, GoogleChannel, GoogleLocation, GoogleUser } from './state/accounts.ts';
import type { GoogleWorld } from './state/world.ts';
import type { YoutubeControls } from './youtube/index.ts';

/**
 * The common controls (an app is an OAuth web client with its authorized redirect URIs; revokeUser:
 * the user removed every app's access, all their grants die: refresh → invalid_grant, API → 401;
 * omitNextRefreshToken: the next token answer of either grant carries no refresh_token) and these.
 */
export interface GoogleEmulator extends OAuthEmulatorControls {
  /** A Google user; by default with a YouTube channel and a personal Business Profile account with one location. */
  addUser(input?: AddUserInput): GoogleUser;
  /** At the next consent screen the user unticks these scopes (granular consent). */
  declineScopesAtNextConsent(scopes: string[]): void;
  /** Gives the user a channel (or removes it with null). */
  setChannel(userId: string, channel: Partial<Omit<GoogleChannel, 'id'>> & { id?: string } | null): GoogleChannel | null;
  addBusinessAccount(userId: string, input?: AddBusinessAccountInput): GoogleBusinessAccount;
  addLocation(accountName: string, input?: AddLocationInput): GoogleLocation;
  /** YouTube: uploads, videos, thumbnails, comments and replies, statistics, the quota (youtube/). */
  youtube: YoutubeControls;
  /** Business Profile localPosts (business/). */
  business: BusinessControls;
}

/** The handle over one running emulator: its world, its server and the YouTube and Business handles. */
export function googleControls(world: GoogleWorld, server: RunningServer, faults: FaultQueue, areas: { youtube: YoutubeControls; business: BusinessControls }): GoogleEmulator {
  const { oauth, store } = world;
  return {
    ...oauthControls(oauth, server, faults),
    addUser: (input = {}) => store.addUser(input),
    revokeUser: (userId) => {
      const clients = new Set([...world.grants.values()].filter((g) => g.userId === userId).map((g) => g.clientId));
      for (const clientId of clients) revokeGrant(world, userId, clientId);
      oauth.revokeUser(userId);
    },
    omitNextRefreshToken: () => {
      world.omitNextRefresh = true;
      oauth.omitNextRefreshToken();
    },
    declineScopesAtNextConsent: (scopes) => {
      world.declineNext = new Set(scopes);
    },
    setChannel: (userId, channel) => store.setChannel(userId, channel),
    addBusinessAccount: (userId, input) => store.addBusinessAccount(userId, input),
    addLocation: (accountName, input) => store.addLocation(accountName, input),
    ...areas,
  };
}
