// The pinterest emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const pinterestEmulator = oauthEmulatorSpec(
  'pinterest',
  async (host) => (await import('../../../emulators/pinterest/server.ts')).startPinterestEmulator({ host }),
  (emulator) => emulator.addUser().id,
);
