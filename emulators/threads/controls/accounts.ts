// The test handle's accounts: Threads users (profile fields defaulted) and long-lived tokens issued
// without the browser flow.
import type { ThreadsUser, ThreadsWorld } from '../state.ts';

export interface AddThreadsUserInput {
  id?: string;
  username?: string;
  name?: string;
  /** null: the user has no picture (the field is then absent from /me). */
  profilePictureUrl?: string | null;
  biography?: string;
  isVerified?: boolean;
}

export interface AccountControls {
  addUser(input?: AddThreadsUserInput): ThreadsUser;
  /** Issues a long-lived token directly (tests that skip the browser flow), issued now on the emulator clock. */
  issueLongLived(userId: string, clientId: string, scopes?: string[]): string;
}

let idCounter = 0;

export function accountControls(world: ThreadsWorld): AccountControls {
  return {
    addUser: (input = {}) => {
      idCounter += 1;
      // Numeric ids below 2^53, so user_id (a JSON number) survives any JSON parser.
      const id = input.id ?? String(2_000_000_000_000_000 + Date.now() % 1_000_000_000 * 1000 + idCounter);
      const username = input.username ?? `threads_user_${idCounter}`;
      const user: ThreadsUser = {
        id,
        username,
        name: input.name ?? username.replace(/_/g, ' '),
        profilePictureUrl: input.profilePictureUrl === undefined ? `https://scontent.cdninstagram.com/v/t51/${id}.jpg` : input.profilePictureUrl,
        biography: input.biography ?? '',
        isVerified: input.isVerified ?? false,
      };
      world.users.set(id, user);
      return structuredClone(user);
    },
    issueLongLived: (userId, clientId, scopes = ['threads_basic', 'threads_content_publish']) => {
      const { accessToken } = world.oauth.issue(userId, clientId, scopes, false, world.settings.longLivedSecs);
      world.longLived.add(accessToken);
      return accessToken;
    },
  };
}
