// The Google emulator in `crier start --sandbox`: it serves YouTube and Google Business Profile, with
// the sandbox location "Sandbox Bakery" (verified, managed by the sandbox user) connected out of the
// box. Imported only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { GOOGLE_BUSINESS_SCOPES } from '../google_business/oauth.ts';

/** The app the sandbox account's token is issued to (the emulator does not tie API calls to a registered app). */
const SANDBOX_APP = 'crier-sandbox';

export const googleEmulator = oauthEmulatorSpec(
  'google',
  async (host) => (await import('../../../emulators/google/server.ts')).startGoogleEmulator({ host }),
  (emulator) => emulator.addUser().id,
  async (google) => {
    const user = google.addUser({ name: 'Sandbox Baker', channel: null, businessAccounts: [{ accountName: 'Sandbox Bakery', type: 'LOCATION_GROUP', locations: [{ title: 'Sandbox Bakery' }] }] });
    const account = user.businessAccounts[0]!;
    // A token that does not expire (null lifetime): the sandbox has no refresh through the org's app.
    const token = google.oauth.issue(user.id, SANDBOX_APP, [...GOOGLE_BUSINESS_SCOPES], false, null);
    return [{
      network: 'google_business', username: 'sandbox_bakery', nickname: 'Sandbox Bakery',
      networkUniqueId: `${account.name}/${account.locations[0]!.name}`, accessToken: token.accessToken,
    }];
  },
);
