// The Google emulator in `crier start --sandbox`: it serves YouTube and Google Business Profile.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const googleEmulator: SandboxEmulatorSpec = {
  name: 'google',
  async start(host) {
    const { startGoogleEmulator } = await import('../../../emulators/google/server.ts');
    const emulator = await startGoogleEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().id);
  },
};
