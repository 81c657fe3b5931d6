// The X emulator in `crier start --sandbox`: the sandbox account @sandbox_x, and the connect flow of
// an app registered on it. Imported only when the sandbox starts it: emulators are development code
// no other process loads.
import { randomBytes } from 'node:crypto';
import { oauthEmulatorSpec } from '../emulator.ts';

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
);
