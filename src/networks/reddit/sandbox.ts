// The reddit emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const redditEmulator: SandboxEmulatorSpec = {
  name: 'reddit',
  async start(host) {
    const { startRedditEmulator } = await import('../../../emulators/reddit/server.ts');
    const emulator = await startRedditEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().id);
  },
};
