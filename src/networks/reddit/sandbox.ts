// The reddit emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const redditEmulator = oauthEmulatorSpec(
  'reddit',
  async (host) => (await import('../../../emulators/reddit/server.ts')).startRedditEmulator({ host }),
  (emulator) => emulator.addUser().id,
);
