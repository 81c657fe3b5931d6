// The Bluesky emulator in `crier start --sandbox`: the sandbox account sandbox.test, connected with its
// app password as a user would. Imported only when the sandbox starts it: emulators are development
// code no other process loads.
import { randomBytes } from 'node:crypto';
import { emulatorSpec } from '../emulator.ts';
import { loginWithAppPassword } from './connect.ts';

const BLUESKY = { handle: 'sandbox.test', did: 'did:plc:crier2sandbox2account2aa', appPassword: 'sbox-sbox-sbox-sbox' };

export const blueskyEmulator = emulatorSpec(
  'bluesky',
  async (host) => (await import('../../../emulators/bluesky/server.ts')).startBlueskyEmulator({ host }),
  (bluesky) => ({
    async sandboxAccounts() {
      bluesky.addAccount({ handle: BLUESKY.handle, did: BLUESKY.did, password: randomBytes(12).toString('hex'), appPasswords: [BLUESKY.appPassword] });
      const session = await loginWithAppPassword(bluesky.url, BLUESKY.handle, BLUESKY.appPassword);
      return [{
        network: 'bluesky', username: session.handle, nickname: 'Sandbox Bluesky', networkUniqueId: session.did,
        serviceUrl: session.serviceUrl, credential: BLUESKY.appPassword, accessToken: session.accessJwt, refreshToken: session.refreshJwt,
      }];
    },
  }),
);
