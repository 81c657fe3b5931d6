// The tiktok emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const tiktokEmulator = oauthEmulatorSpec(
  'tiktok',
  async (host) => (await import('../../../emulators/tiktok/server.ts')).startTikTokEmulator({ host }),
  (emulator) => emulator.addUser().openId,
);
