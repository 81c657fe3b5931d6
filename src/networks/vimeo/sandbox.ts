// The vimeo emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const vimeoEmulator = oauthEmulatorSpec(
  'vimeo',
  async (host) => (await import('../../../emulators/vimeo/server.ts')).startVimeoEmulator({ host }),
  (emulator) => emulator.addUser().id,
);
