// The linkedin emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const linkedinEmulator: SandboxEmulatorSpec = {
  name: 'linkedin',
  async start(host) {
    const { startLinkedInEmulator } = await import('../../../emulators/linkedin/server.ts');
    const emulator = await startLinkedInEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().sub);
  },
};
