// The linkedin emulator in `crier start --sandbox`: the sandbox member (@sandbox_linkedin) and the
// company page they administer (@sandbox-company), both connected out of the box, and the connect
// flow of an app registered on it (the same member consents, so a connect finds both again). Imported
// only when the sandbox starts it: emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';
import { LINKEDIN_SCOPES } from './oauth.ts';

const MEMBER = { sub: 'sandbox-member', email: 'sandbox_linkedin@example.com', givenName: 'Sandbox', familyName: 'Member' };
const COMPANY = { localizedName: 'Sandbox Company', vanityName: 'sandbox-company' };
/** The app the sandbox accounts' tokens are issued to. */
const SANDBOX_APP = { clientId: 'crier-sandbox', clientSecret: 'crier-sandbox-secret', redirectUris: [] };

export const linkedinEmulator = oauthEmulatorSpec(
  'linkedin',
  async (host) => (await import('../../../emulators/linkedin/server.ts')).startLinkedInEmulator({ host }),
  // The user who consents on connect is the sandbox member, created by sandboxAccounts() first.
  () => MEMBER.sub,
  async (emulator) => {
    const member = emulator.addUser(MEMBER);
    const page = emulator.addOrganization(COMPANY);
    emulator.grantRole(page.id, member.sub);
    emulator.addApp(SANDBOX_APP);
    const token = emulator.oauth.issue(member.sub, SANDBOX_APP.clientId, LINKEDIN_SCOPES, false).accessToken;
    return [
      { network: 'linkedin', username: 'sandbox_linkedin', nickname: member.name, networkUniqueId: `urn:li:person:${member.sub}`, accessToken: token },
      { network: 'linkedin', username: COMPANY.vanityName, nickname: COMPANY.localizedName, networkUniqueId: `urn:li:organization:${page.id}`, accessToken: token },
    ];
  },
);
