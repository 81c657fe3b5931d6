// The tiktok emulator in `crier start --sandbox`: the sandbox creator @sandbox_tiktok, connected out of
// the box with a token that does not expire, and the connect flow of an app registered on it.
// Imported only when the sandbox starts it: emulators are development code no other process loads.
// In the sandbox every media URL counts as verified for the app (TikTok downloads photos only from
// the operator's verified domain), so photo posts from a local Crier work.
import { oauthEmulatorSpec } from '../emulator.ts';
import { TIKTOK_ENGAGEMENT_SCOPES, TIKTOK_SCOPES } from './oauth.ts';

const TIKTOK_USER = { openId: '-000sandboxtiktokcreator000001', username: 'sandbox_tiktok', displayName: 'Sandbox TikTok' };
/** The app the sandbox creator's token is issued to (the emulator does not tie tokens to a registered app). */
const SANDBOX_APP = 'crier-sandbox';

export const tiktokEmulator = oauthEmulatorSpec(
  'tiktok',
  async (host, fetchMedia) => (await import('../../../emulators/tiktok/server.ts')).startTikTokEmulator({ host, verifiedPrefixes: ['http://', 'https://'], fetchMedia }),
  (emulator) => emulator.addUser().openId,
  async (emulator) => {
    emulator.addUser(TIKTOK_USER);
    // No expiry: a sandbox session never needs the refresh flow (which the org's own app would run).
    // The engagement scopes too, so the sandbox creator's videos and figures can be read.
    const token = emulator.oauth.issue(TIKTOK_USER.openId, SANDBOX_APP, [...TIKTOK_SCOPES, ...TIKTOK_ENGAGEMENT_SCOPES], false, null).accessToken;
    return [{ network: 'tiktok', username: TIKTOK_USER.username, nickname: TIKTOK_USER.displayName, networkUniqueId: TIKTOK_USER.openId, accessToken: token }];
  },
);
