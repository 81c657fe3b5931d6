// The threads emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const threadsEmulator = oauthEmulatorSpec(
  'threads',
  async (host) => (await import('../../../emulators/threads/server.ts')).startThreadsEmulator({ host }),
  (emulator) => emulator.addUser().id,
);
