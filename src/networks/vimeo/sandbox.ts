// The vimeo emulator in `crier start --sandbox`: the sandbox member @sandbox_vimeo, connected out of
// the box (Vimeo tokens do not expire), and the connect flow of an app registered on it. Imported only
// when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { VIMEO_SCOPES } from './oauth.ts';

const VIMEO_USER = { id: '100000000', username: 'sandbox_vimeo', name: 'Sandbox Vimeo' };
/** The app the sandbox account's token is issued to (the emulator does not tie tokens to a registered app). */
const SANDBOX_APP = 'crier-sandbox';

export const vimeoEmulator = oauthEmulatorSpec(
  'vimeo',
  async (host) => (await import('../../../emulators/vimeo/server.ts')).startVimeoEmulator({ host }),
  (emulator) => emulator.addUser().id,
  async (vimeo) => {
    vimeo.addUser({ id: VIMEO_USER.id, username: VIMEO_USER.username, name: VIMEO_USER.name });
    // Videos transcode after one status read: a sandbox video is live within seconds.
    vimeo.setTranscodeReads(1);
    const token = vimeo.oauth.issue(VIMEO_USER.id, SANDBOX_APP, VIMEO_SCOPES).accessToken;
    return [{ network: 'vimeo', username: VIMEO_USER.username, nickname: VIMEO_USER.name, networkUniqueId: VIMEO_USER.id, accessToken: token }];
  },
);
