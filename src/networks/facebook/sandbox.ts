// The Facebook emulator in `crier start --sandbox`: it serves Instagram too.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const facebookEmulator = oauthEmulatorSpec(
  'facebook',
  async (host) => (await import('../../../emulators/facebook/server.ts')).startFacebookEmulator({ host }),
  (emulator) => emulator.addUser().id,
);
