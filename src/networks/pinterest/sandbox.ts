// The pinterest emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const pinterestEmulator: SandboxEmulatorSpec = {
  name: 'pinterest',
  async start(host) {
    const { startPinterestEmulator } = await import('../../../emulators/pinterest/server.ts');
    const emulator = await startPinterestEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().id);
  },
};
