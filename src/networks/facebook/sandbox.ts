// The Facebook emulator in `crier start --sandbox`: it serves Instagram too. Out of the box the
// sandbox holds a Facebook Page, "Sandbox Page", and the Instagram professional account linked to it,
// @sandbox_ig, each connected with the Page's token (which never expires, as a Page token taken from
// a long-lived user token). Imported only when the sandbox starts it: emulators are development code
// no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { INSTAGRAM_SCOPES } from '../instagram/oauth.ts';
import { FACEBOOK_SCOPES } from './oauth.ts';

const SANDBOX = { userId: '10000000000000099', pageId: '100000000000099', igId: '17841400000000099', igUsername: 'sandbox_ig', pageName: 'Sandbox Page' };

const seeded = new WeakSet<object>();

export const facebookEmulator = oauthEmulatorSpec(
  'facebook',
  async (host) => (await import('../../../emulators/facebook/server.ts')).startFacebookEmulator({ host }),
  // The user who consents manages the sandbox Page, created by sandboxAccounts() first.
  () => SANDBOX.userId,
  async (emulator) => {
    // Asked again (a new org in the same run), the seeded user is already there: only a token is new.
    if (!seeded.has(emulator)) emulator.addUser({
      id: SANDBOX.userId,
      name: 'Sandbox User',
      pages: [{ id: SANDBOX.pageId, name: SANDBOX.pageName, username: 'sandboxpage', instagram: { id: SANDBOX.igId, username: SANDBOX.igUsername, name: 'Sandbox Instagram' } }],
    });
    seeded.add(emulator);
    // With the insights and delete permissions the engagement side needs (figures, deleting media).
    const token = emulator.issuePageToken(SANDBOX.pageId, 'sandbox-facebook', [...new Set([...FACEBOOK_SCOPES, ...INSTAGRAM_SCOPES])]);
    return [
      { network: 'facebook', username: 'sandboxpage', nickname: SANDBOX.pageName, networkUniqueId: SANDBOX.pageId, accessToken: token },
      { network: 'instagram', username: SANDBOX.igUsername, nickname: 'Sandbox Instagram', networkUniqueId: SANDBOX.igId, accessToken: token },
    ];
  },
);
