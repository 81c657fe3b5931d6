// The linkedin emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import { oauthEmulatorSpec } from '../emulator.ts';

export const linkedinEmulator = oauthEmulatorSpec(
  'linkedin',
  async (host) => (await import('../../../emulators/linkedin/server.ts')).startLinkedInEmulator({ host }),
  // The sandbox member administers a company page, so both kinds of author can be connected and posted as.
  (emulator) => {
    const member = emulator.addUser();
    const page = emulator.addOrganization({ localizedName: 'Sandbox Company', vanityName: 'sandbox-company' });
    emulator.grantRole(page.id, member.sub);
    return member.sub;
  },
);
