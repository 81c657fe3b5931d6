// The X emulator in `crier start --sandbox`: the sandbox account @sandbox_x, and the connect flow of
// an app registered on it. Imported only when the sandbox starts it: emulators are development code
// no other process loads.
import { randomBytes } from 'node:crypto';
import type { SandboxEmulatorSpec } from '../contract.ts';

const X_USER = { id: '1790000000000000001', username: 'sandbox_x' };

export const xEmulator: SandboxEmulatorSpec = {
  name: 'x',
  async start(host) {
    const { startXEmulator } = await import('../../../emulators/x/server.ts');
    const x = await startXEmulator({ host });
    return {
      url: x.url,
      close: () => x.close(),
      // The user who consents is the sandbox account's, created by sandboxAccounts() first.
      prepareConnect({ redirectUris, ...app }) {
        x.addApp({ ...app, callbackUrls: redirectUris });
        x.signIn(X_USER.id);
      },
      async sandboxAccounts() {
        const token = `sandbox-${randomBytes(16).toString('hex')}`;
        x.addUser({ id: X_USER.id, username: X_USER.username, accessToken: token, expiresInSecs: 365 * 86400 });
        return [{ network: 'x', username: X_USER.username, nickname: 'Sandbox X', networkUniqueId: X_USER.id, accessToken: token }];
      },
    };
  },
};
