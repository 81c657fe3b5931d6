// The tiktok emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads. In the sandbox every media URL counts as
// verified for the app (TikTok downloads photos only from the operator's verified domain), so photo
// posts from a local Crier work.
import { oauthEmulatorSpec } from '../emulator.ts';

export const tiktokEmulator = oauthEmulatorSpec(
  'tiktok',
  async (host) => (await import('../../../emulators/tiktok/server.ts')).startTikTokEmulator({ host, verifiedPrefixes: ['http://', 'https://'] }),
  (emulator) => emulator.addUser().openId,
);
