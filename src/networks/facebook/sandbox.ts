// The Facebook emulator in `crier start --sandbox`: it serves Instagram too. Out of the box the
// sandbox holds a Facebook Page, "Sandbox Page", and the Instagram professional account linked to it,
// @sandbox_ig, each connected with the Page's token (which never expires, as a Page token taken from
// a long-lived user token). Imported only when the sandbox starts it: emulators are development code
// no other process loads.
import type { SandboxAccountSeed } from '../../sandbox/contract.ts';
import { oauthEmulatorSpec, sandboxPeople } from '../emulator.ts';
import { INSTAGRAM_SCOPES, MESSAGING_SCOPES } from '../instagram/oauth.ts';
import { FACEBOOK_SCOPES } from './oauth.ts';

const SANDBOX = { userId: '10000000000000099', pageId: '100000000000099', igId: '17841400000000099', igUsername: 'sandbox_ig', pageName: 'Sandbox Page' };

const seeded = new WeakSet<object>();

export const facebookEmulator = oauthEmulatorSpec(
  'facebook',
  async (host, fetchMedia) => (await import('../../../emulators/facebook/server.ts')).startFacebookEmulator({ host, fetchMedia }),
  // The user who consents manages the sandbox Page, created by sandboxAccounts() first.
  () => SANDBOX.userId,
  async (emulator) => {
    // Asked again (a new org in the same run), the seeded user is already there: only a token is new.
    if (!seeded.has(emulator)) {
      emulator.addUser({
        id: SANDBOX.userId,
        name: 'Sandbox User',
        pages: [{ id: SANDBOX.pageId, name: SANDBOX.pageName, username: 'sandboxpage', instagram: { id: SANDBOX.igId, username: SANDBOX.igUsername, name: 'Sandbox Instagram' } }],
      });
      // An established Page: Meta gives Page insights only to Pages with 100 or more likes, and the
      // sandbox shows what analytics look like when there are figures.
      emulator.pages.setPageCounts(SANDBOX.pageId, { followers: 1240, fans: 1180 });
    }
    seeded.add(emulator);
    // With the insights and delete permissions the engagement side needs (figures, deleting media),
    // and Instagram's messaging ones: the sandbox lets a newcomer try conversations.
    const token = emulator.issuePageToken(SANDBOX.pageId, 'sandbox-facebook', [...new Set([...FACEBOOK_SCOPES, ...INSTAGRAM_SCOPES, ...MESSAGING_SCOPES])]);
    // Connected as if the messaging scope was asked for on connect: its direct messages are received.
    const instagram: SandboxAccountSeed = {
      network: 'instagram', username: SANDBOX.igUsername, nickname: 'Sandbox Instagram', networkUniqueId: SANDBOX.igId, accessToken: token, messaging: true,
    };
    return [
      { network: 'facebook', username: 'sandboxpage', nickname: SANDBOX.pageName, networkUniqueId: SANDBOX.pageId, accessToken: token },
      instagram,
    ];
  },
  {
    engagement: (emulator) => {
      // A Page sees a commenter as a Page-scoped id with a name: made up once per username.
      let commenters = 0;
      const pageScoped = sandboxPeople(() => String(7_100_000_000_000_000 + ++commenters));
      // On Instagram a person is an Instagram-scoped id (IGSID): the same one comments and writes.
      const igsid = sandboxPeople((username) => emulator.instagramMessaging.addContact({ username, name: username }).id);
      return {
        // Both networks thread one tier: the emulator puts an answer to an answer under its top-level comment, as they do.
        addComment: async ({ network, post, parentCommentId, text, author }) => {
          const target = parentCommentId ?? post.root.platformId;
          if (network === 'instagram') return { commentId: emulator.instagram.addComment(target, { text, username: author, fromId: igsid(author) }).id };
          return { commentId: emulator.pages.addComment(target, { message: text, fromId: pageScoped(author), fromName: author }).id };
        },
        addMessage: async ({ network, networkUniqueId, text, from }) => {
          if (network !== 'instagram') throw new Error(`${network} direct messages are not emulated`);
          // The emulator POSTs the messaging webhook before answering: Crier has stored it by then.
          const { message } = await emulator.instagramMessaging.message({ igUserId: networkUniqueId, from: igsid(from), text });
          return { messageId: message.mid };
        },
        // The app dashboard's Instagram subscription (comments, messages): one callback, signed with the app's secret.
        subscribeInbound: ({ callbackUrl, appSecret }) => emulator.instagramMessaging.subscribe(callbackUrl('instagram'), appSecret),
      };
    },
  },
);
