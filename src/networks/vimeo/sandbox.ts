// The vimeo emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const vimeoEmulator: SandboxEmulatorSpec = {
  name: 'vimeo',
  async start(host) {
    const { startVimeoEmulator } = await import('../../../emulators/vimeo/server.ts');
    const emulator = await startVimeoEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().id);
  },
};
