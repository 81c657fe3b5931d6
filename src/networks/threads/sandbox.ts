// The threads emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const threadsEmulator: SandboxEmulatorSpec = {
  name: 'threads',
  async start(host) {
    const { startThreadsEmulator } = await import('../../../emulators/threads/server.ts');
    const emulator = await startThreadsEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().id);
  },
};
