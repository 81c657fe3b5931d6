// How `crier start --sandbox` starts a network's emulator; for an OAuth network, the org's app is
// registered on it and a user signed in who consents at once, so the connect flow completes with no
// network credentials.
import { randomBytes } from 'node:crypto';
import type { SandboxAccountSeed, SandboxEmulator, SandboxEmulatorSpec } from '../sandbox/contract.ts';

/** What every OAuth emulator offers (emulators/shared/oauth.ts), without importing it: emulators load only in the sandbox. */
interface OAuthEmulator extends StartedEmulator {
  addApp(app: { clientId: string; clientSecret: string; redirectUris: string[] }): void;
  signIn(userId: string): void;
}

/** What a started emulator is, at the least. */
interface StartedEmulator {
  url: string;
  close(): Promise<void>;
}

/**
 * The sandbox spec of a network's emulator: `load` imports and starts it (emulators load only in the
 * sandbox), `sides` adds what the network's sandbox offers on it (connecting, seeded accounts).
 */
export function emulatorSpec<E extends StartedEmulator>(
  name: string, load: (host: string, fetchMedia?: typeof fetch) => Promise<E>, sides: (emulator: E) => Omit<SandboxEmulator, 'url' | 'close'> = () => ({}),
): SandboxEmulatorSpec {
  return {
    name,
    async start(host, fetchMedia) {
      const emulator = await load(host, fetchMedia);
      return { url: emulator.url, close: () => emulator.close(), ...sides(emulator) };
    },
  };
}

/**
 * The sandbox spec of an OAuth network's emulator: on connect, the org's app is registered on it and
 * the user `addUser` adds (returning the id signIn() takes) consents at once.
 */
export function oauthEmulatorSpec<E extends OAuthEmulator>(
  name: string, load: (host: string, fetchMedia?: typeof fetch) => Promise<E>, addUser: (emulator: E) => string,
  sandboxAccounts?: (emulator: E) => Promise<SandboxAccountSeed[]>,
  options: { managedApp?: boolean; engagement?: (emulator: E) => EngagementSides } = {},
): SandboxEmulatorSpec {
  return emulatorSpec(name, load, (emulator) => ({
    ...options.engagement?.(emulator),
    prepareConnect(app) {
      emulator.addApp(app);
      emulator.signIn(addUser(emulator));
    },
    ...(sandboxAccounts ? { sandboxAccounts: () => sandboxAccounts(emulator) } : {}),
    ...(options.managedApp ? { managedApp: () => registerManagedApp(name, emulator) } : {}),
  }));
}

/** What a network's sandbox offers for trying engagement: comments and messages from made-up people. */
export type EngagementSides = Pick<SandboxEmulator, 'addComment' | 'addMessage' | 'subscribeInbound'>;

/**
 * The made-up people of an emulator who comment and write, by username: each is created on the
 * emulator once (`create` returns its id there), then found again.
 */
export function sandboxPeople(create: (username: string) => string): (username: string) => string {
  const ids = new Map<string, string>();
  return (username) => {
    let id = ids.get(username);
    if (id === undefined) ids.set(username, (id = create(username)));
    return id;
  };
}

/** The client id of the operator's app on the emulator `name`: seeded accounts' tokens are issued to it. */
export const managedAppClientId = (name: string) => `managed-${name}`;

/** The operator's app on the emulator: it only refreshes the seeded accounts' tokens, so it needs no redirect URI. */
function registerManagedApp(name: string, emulator: OAuthEmulator): { clientId: string; clientSecret: string } {
  const app = { clientId: managedAppClientId(name), clientSecret: randomBytes(16).toString('hex') };
  emulator.addApp({ ...app, redirectUris: [] });
  return app;
}
