// The tiktok emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const tiktokEmulator: SandboxEmulatorSpec = {
  name: 'tiktok',
  async start(host) {
    const { startTikTokEmulator } = await import('../../../emulators/tiktok/server.ts');
    const emulator = await startTikTokEmulator({ host });
    return oauthSandboxEmulator(emulator, () => emulator.addUser().openId);
  },
};
