// The Facebook emulator in `crier start --sandbox`: it serves Instagram too.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const facebookEmulator: SandboxEmulatorSpec = {
  name: 'facebook',
  async start(host) {
    const { startFacebookEmulator } = await import('../../../emulators/facebook/server.ts');
    const emulator = await startFacebookEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().id);
  },
};
