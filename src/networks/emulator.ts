// The sandbox side of an OAuth network's emulator: the org's app registered on it, and a fresh user
// signed in who consents at once, so the connect flow completes with no network credentials.
import type { SandboxEmulator, SandboxEmulatorSpec } from './contract.ts';

/** What every OAuth emulator offers (emulators/shared/oauth.ts), without importing it: emulators load only in the sandbox. */
interface OAuthEmulator {
  url: string;
  addApp(app: { clientId: string; clientSecret: string; redirectUris: string[] }): void;
  signIn(userId: string): void;
  close(): Promise<void>;
}

/** `addUser` adds the sandbox user with the emulator's defaults and returns the id signIn() takes. */
export function oauthSandboxEmulator(emulator: OAuthEmulator, addUser: () => string): SandboxEmulator {
  return {
    url: emulator.url,
    close: () => emulator.close(),
    prepareConnect(app) {
      emulator.addApp(app);
      emulator.signIn(addUser());
    },
  };
}

/**
 * The sandbox spec of an OAuth network's emulator: `load` imports and starts it (emulators load only
 * in the sandbox), `addUser` adds the user who consents.
 */
export function oauthEmulatorSpec<E extends OAuthEmulator>(name: string, load: (host: string) => Promise<E>, addUser: (emulator: E) => string): SandboxEmulatorSpec {
  return {
    name,
    async start(host) {
      const emulator = await load(host);
      return oauthSandboxEmulator(emulator, () => addUser(emulator));
    },
  };
}
