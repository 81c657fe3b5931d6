// The Google emulator in `crier start --sandbox`: it serves YouTube and Google Business Profile.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const googleEmulator = oauthEmulatorSpec(
  'google',
  async (host) => (await import('../../../emulators/google/server.ts')).startGoogleEmulator({ host }),
  (emulator) => emulator.addUser().id,
);
