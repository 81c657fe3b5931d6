// The X emulator in `crier start --sandbox`: the sandbox account @sandbox_x, and the connect flow of
// an app registered on it. Imported only when the sandbox starts it: emulators are development code
// no other process loads.
import { randomBytes } from 'node:crypto';
import { oauthEmulatorSpec, sandboxPeople } from '../emulator.ts';

const X_USER = { id: '1790000000000000001', username: 'sandbox_x' };

export const xEmulator = oauthEmulatorSpec(
  'x',
  async (host) => {
    const x = await (await import('../../../emulators/x/server.ts')).startXEmulator({ host });
    // X's apps list callback URLs under their own name.
    return { ...x, url: x.url, close: () => x.close(), addApp: ({ redirectUris, ...app }: { clientId: string; clientSecret: string; redirectUris: string[] }) => x.addApp({ ...app, callbackUrls: redirectUris }) };
  },
  // The user who consents is the sandbox account's, created by sandboxAccounts() first.
  () => X_USER.id,
  async (x) => {
    const token = `sandbox-${randomBytes(16).toString('hex')}`;
    x.addUser({ id: X_USER.id, username: X_USER.username, accessToken: token, expiresInSecs: 365 * 86400 });
    return [{ network: 'x', username: X_USER.username, nickname: 'Sandbox X', networkUniqueId: X_USER.id, accessToken: token }];
  },
  {
    engagement: (x) => {
      const person = sandboxPeople((username) => x.addUser({ username, accessToken: `sandbox-person-${randomBytes(16).toString('hex')}` }).id);
      return {
        // A reply is a post in the conversation: X's comments are what recent search finds there. Its
        // text starts with the account's handle, as X's apps write replies, so the account may answer
        // it on a self-serve plan (X lets such apps answer only those who mentioned the account).
        addComment: async ({ username, post, parentCommentId, text, author }) => {
          const mentioned = new RegExp(`(^|[^A-Za-z0-9_])@${username}(?![A-Za-z0-9_])`, 'i').test(text) ? text : `@${username} ${text}`;
          return { commentId: x.addTweet({ authorId: person(author), text: mentioned, inReplyTo: parentCommentId ?? post.root.platformId }).id };
        },
      };
    },
  },
);
