// The pinterest emulator in `crier start --sandbox`: the sandbox account @sandbox_pinterest, connected
// out of the box with two boards to pin to, and the connect flow of an app registered on it. Imported
// only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { PINTEREST_SCOPES } from './oauth.ts';

const PINTEREST_USER = { id: '5100000000000001', username: 'sandbox_pinterest', businessName: 'Sandbox Pinterest' };
/** Its boards: `pinterest.board_id` takes these ids (GET /v1/social-accounts/:id/boards lists them). */
const SANDBOX_BOARDS = [
  { id: '5100000000000101', name: 'Sandbox ideas', description: 'Pins published from the Crier sandbox', privacy: 'PUBLIC' as const },
  { id: '5100000000000102', name: 'Sandbox drafts', description: 'A secret board', privacy: 'SECRET' as const },
];

export const pinterestEmulator = oauthEmulatorSpec(
  'pinterest',
  async (host, fetchMedia) => (await import('../../../emulators/pinterest/server.ts')).startPinterestEmulator({ host, fetchMedia }),
  (emulator) => emulator.addUser().id,
  async (pinterest) => {
    pinterest.addUser({ id: PINTEREST_USER.id, username: PINTEREST_USER.username, businessName: PINTEREST_USER.businessName });
    for (const board of SANDBOX_BOARDS) pinterest.addBoard({ ownerId: PINTEREST_USER.id, ...board });
    const accessToken = pinterest.issueToken(PINTEREST_USER.id, PINTEREST_SCOPES);
    return [{ network: 'pinterest', username: PINTEREST_USER.username, nickname: PINTEREST_USER.businessName, networkUniqueId: PINTEREST_USER.id, accessToken }];
  },
);
