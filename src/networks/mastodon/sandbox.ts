// The Mastodon emulator in `crier start --sandbox`: one instance (the configured one,
// CRIER_MASTODON_BASE_URL) of the domain sandbox.mastodon.test, whatever port it listens on, with the
// account @sandbox (sandbox@sandbox.mastodon.test: the same account on every run), connected with an
// access token as a user would, and signed in on the instance's authorize page for an OAuth connect.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import { emulatorSpec } from '../emulator.ts';
import { connectAccount } from './connect.ts';

export const mastodonEmulator = emulatorSpec(
  'mastodon',
  async (host) => (await import('../../../emulators/mastodon/server.ts')).startMastodonEmulator({ host, domain: 'sandbox.mastodon.test' }),
  (mastodon) => ({
    async sandboxAccounts() {
      const { id, token } = mastodon.addAccount({ username: 'sandbox', displayName: 'Crier Sandbox' });
      // The instance's sign-in page consents as @sandbox: connecting through OAuth in the sandbox reaches the same account.
      mastodon.signIn(id);
      const account = await connectAccount({ trusted: mastodon.url, allowLoopback: false }, { instanceUrl: mastodon.url, accessToken: token });
      return [{
        network: 'mastodon', username: account.username, nickname: 'Sandbox Mastodon', networkUniqueId: account.networkUniqueId,
        serviceUrl: account.serviceUrl, credential: account.credential,
      }];
    },
  }),
);
