// The threads emulator in `crier start --sandbox`: the sandbox profile @sandbox_threads, connected
// out of the box with a long-lived token, and the connect flow of an app registered on it. Imported
// only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { THREADS_SCOPES } from './oauth.ts';

// Below 2^53: the code exchange answers user_id as a JSON number.
const THREADS_USER = { id: '27900000000001', username: 'sandbox_threads' };
/** The app the sandbox account's token is issued to (the emulator does not tie tokens to a registered app). */
const SANDBOX_APP = 'crier-sandbox';

export const threadsEmulator = oauthEmulatorSpec(
  'threads',
  async (host, fetchMedia) => (await import('../../../emulators/threads/server.ts')).startThreadsEmulator({ host, fetchMedia }),
  // The user who consents on connect is the sandbox profile, created by sandboxAccounts() first.
  () => THREADS_USER.id,
  async (threads) => {
    threads.addUser({ id: THREADS_USER.id, username: THREADS_USER.username, name: 'Sandbox Threads' });
    const token = threads.issueLongLived(THREADS_USER.id, SANDBOX_APP, THREADS_SCOPES);
    return [{ network: 'threads', username: THREADS_USER.username, nickname: 'Sandbox Threads', networkUniqueId: THREADS_USER.id, accessToken: token }];
  },
  {
    engagement: (threads) => ({
      // Threads nests replies at any depth: an answer goes under the very reply it answers. The
      // emulator creates the profile on its first reply and finds it by username after.
      addComment: async ({ post, parentCommentId, text, author }) => ({
        commentId: threads.addReply({ to: parentCommentId ?? post.root.platformId, username: author, text }).id,
      }),
      // As a developer subscribes their app to the `replies` field: every new reply on the account's
      // posts is pushed, signed with the app's secret, Crier's own answers included.
      subscribeInbound: ({ callbackUrl, appId, appSecret }) => threads.subscribeReplies({ callbackUrl: callbackUrl('threads'), appId, appSecret }),
    }),
  },
);
