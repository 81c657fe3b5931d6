// The linkedin emulator in `crier start --sandbox`. Imported only when the sandbox starts it:
// emulators are development code no other process loads.
import type { SandboxEmulatorSpec } from '../contract.ts';
import { oauthSandboxEmulator } from '../emulator.ts';

export const linkedinEmulator: SandboxEmulatorSpec = {
  name: 'linkedin',
  async start(host) {
    const { startLinkedInEmulator } = await import('../../../emulators/linkedin/server.ts');
    const emulator = await startLinkedInEmulator({ host });
    // The sandbox member administers a company page, so both kinds of author can be connected and posted as.
    return oauthSandboxEmulator(emulator, () => {
      const member = emulator.addUser();
      const page = emulator.addOrganization({ localizedName: 'Sandbox Company', vanityName: 'sandbox-company' });
      emulator.grantRole(page.id, member.sub);
      return member.sub;
    });
  },
};
