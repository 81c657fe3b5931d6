// The sandbox: `crier start --sandbox` runs the network emulators inside Crier (each network of the
// registry says which emulator serves it), connects the sandbox accounts the emulators hold for the
// default organization, and registers an app on every OAuth network with a signed-in emulator user,
// so a newcomer can publish end to end and try the connect flow of any network with no network
// credentials. Emulators keep their data in memory: a restart
// starts them empty, and the sandbox accounts are connected again (same ids). Crier's own database
// persists between runs (posts, accounts, webhooks); each run gets a key of its own and revokes the
// previous run's. The emulators that download the media a post names, as their networks do, fetch it
// through Crier's SSRF guard (sandboxMediaFetch), and the sandbox listens on loopback unless HOST says
// otherwise: it holds the keys printed on screen and tokens of sandbox accounts, for this machine only.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { upsertSocialAccount } from '../accounts/social-accounts.ts';
import { createApiKey, revokeApiKeysNamed } from '../orgs/api-keys.ts';
import { saveSocialNetwork } from '../accounts/social-networks.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { encodeId } from '../core/ids.ts';
import { tokenOfPublicUrl } from '../media/context.ts';
import type { SandboxControls, SandboxedNetwork, SandboxEmulator, SandboxEmulatorSpec } from './contract.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { SecretBox } from '../security/crypto.ts';
import { createGuardedClient, guardedFetch, type GuardOptions } from '../security/ssrf.ts';

/** One running emulator and the networks it serves (facebook's serves instagram too). */
interface RunningEmulator {
  name: string;
  emulator: SandboxEmulator;
  networks: SandboxedNetwork[];
}

export interface Sandbox {
  /** Environment overrides that point Crier at the emulators, and HOST: where it listens (loopback unless set). */
  env: Record<string, string>;
  emulators: RunningEmulator[];
  /** What the API's sandbox routes do on the emulators. */
  controls: SandboxControls;
  close(): Promise<void>;
}

export interface SandboxAccount {
  id: string;
  network: NetworkId;
  username: string;
  /** The block a post to it needs in the sandbox (SandboxAccountSeed.exampleBlock). */
  exampleBlock?: Record<string, unknown>;
}

/** Where the emulators listen, and where the sandbox's API listens unless HOST names another address. */
const host = '127.0.0.1';

/** The networks that have a sandbox, grouped by the emulator serving them, in the registry's order. */
function emulatorsOf(networkList: readonly SandboxedNetwork[]): Map<SandboxEmulatorSpec, SandboxedNetwork[]> {
  const served = new Map<SandboxEmulatorSpec, SandboxedNetwork[]>();
  for (const network of networkList) {
    if (!network.sandbox) continue;
    const networks = served.get(network.sandbox.emulator) ?? [];
    served.set(network.sandbox.emulator, [...networks, network]);
  }
  return served;
}

/**
 * `networkList`: the registry's networks (the composition root hands them over: the sandbox imports no
 * network). `processEnv`: the environment Crier was started with. The sandbox's own settings go on top of it,
 * HOST among them: loopback, unless the operator set HOST (HOST=0.0.0.0 serves the sandbox to others).
 */
export async function startSandbox(networkList: readonly SandboxedNetwork[], processEnv: NodeJS.ProcessEnv = process.env): Promise<Sandbox> {
  const env: Record<string, string> = { CRIER_SANDBOX: 'true', HOST: processEnv.HOST?.trim() || host };
  // The configuration Crier runs with is loaded from this same environment, once the emulators'
  // addresses are in it: by the first download, it is.
  let config: MediaFetchSettings | undefined;
  const fetchMedia = sandboxMediaFetch(() => (config ??= loadConfig({ ...processEnv, ...env }, networkList)));
  const served = [...emulatorsOf(networkList)];
  const started = await Promise.allSettled(served.map(([spec]) => spec.start(host, fetchMedia)));
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await Promise.all(running.map((emulator) => emulator.close()));
    throw failed.reason;
  }
  const emulators = served.map(([spec, networks], i) => ({ name: spec.name, emulator: running[i]!, networks }));
  for (const { emulator, networks } of emulators) {
    for (const network of networks) Object.assign(env, network.sandbox!.env(emulator.url));
    Object.assign(env, managedAppEnv(emulator, networks));
  }
  const serving = (network: NetworkId) => emulators.find((e) => e.networks.some((n) => n.id === network))?.emulator;
  return {
    env,
    emulators,
    controls: {
      addComment: (comment) => serving(comment.network)?.addComment?.(comment),
      addMessage: (message) => serving(message.network)?.addMessage?.(message),
    },
    close: async () => {
      await Promise.all(emulators.map(({ emulator }) => emulator.close()));
    },
  };
}

/** What the sandbox's media fetch needs of Crier's configuration. */
export type MediaFetchSettings = Pick<Config, 'publicBaseUrl' | 'allowLoopbackFetch' | 'extraCaFile'>;

/** The emulators give up on a download after this long (as networks do); so does the guard then. */
const MEDIA_FETCH_TIMEOUT_MS = 30_000;
/** The largest file handed to an emulator: the cap Crier's publishing worker downloads media with. */
const MEDIA_FETCH_MAX_BYTES = 512 * 1024 * 1024;

/**
 * The fetch the emulators download a post's media and covers with: Crier's SSRF guard, with the rules
 * a URL a user gave meets when Crier downloads it itself (media/fetch.ts). In the sandbox those URLs
 * come from whoever may post, and the emulators run inside Crier, on its machine: unguarded, a name
 * resolving to 127.0.0.1 or to a cloud metadata address would reach whatever listens there.
 * Crier's own media (`<PUBLIC_BASE_URL>/media/<token>/<file>`, plain http on loopback in a local
 * sandbox) is the one exception: let through as that exact URL (the guard's `ownUrl`), never as the
 * target of a redirect. `settings` is read at the first download.
 */
export function sandboxMediaFetch(settings: () => MediaFetchSettings): typeof fetch {
  let outside: typeof fetch | undefined;
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const own = ownMediaUrl(settings().publicBaseUrl, url);
    if (!own) return (outside ??= guardedFetch(createGuardedClient(guardOptions(settings()))))(input, init);
    const client = createGuardedClient({ ...guardOptions(settings()), ownUrl: own });
    try {
      return await guardedFetch(client)(input, init);
    } finally {
      await client.close();
    }
  };
}

function guardOptions(settings: MediaFetchSettings): GuardOptions {
  return {
    allowLoopback: settings.allowLoopbackFetch,
    ca: settings.extraCaFile ? readFileSync(settings.extraCaFile) : undefined,
    maxBytes: MEDIA_FETCH_MAX_BYTES,
    timeoutMs: MEDIA_FETCH_TIMEOUT_MS,
  };
}

/**
 * `url` as a file Crier serves (`<base>/media/<token>/<filename>`), judged once parsed: dot segments
 * are resolved first, so `/media/<token>/../../admin` is not one. Undefined for any other URL.
 */
export function ownMediaUrl(publicBaseUrl: string, url: string): string | undefined {
  if (!URL.canParse(url) || !URL.canParse(publicBaseUrl)) return undefined;
  const { href } = new URL(url);
  const base = new URL(publicBaseUrl).href.replace(/\/+$/, '');
  const token = tokenOfPublicUrl(base, href);
  if (!token) return undefined;
  const folder = `${base}/media/${token}/`;
  const filename = href.startsWith(folder) ? href.slice(folder.length) : '';
  return filename && !/[/?#]/.test(filename) ? href : undefined;
}

/**
 * The operator's app on an emulator whose sandbox accounts connect through one (YouTube's managed
 * key): CRIER_<NETWORK>_CLIENT_ID/_SECRET for each OAuth network it serves, as an operator sets them.
 */
function managedAppEnv(emulator: SandboxEmulator, networks: SandboxedNetwork[]): Record<string, string> {
  const app = emulator.managedApp?.();
  if (!app) return {};
  return Object.fromEntries(networks.filter((network) => network.connect.kind === 'oauth').flatMap((network) => {
    const prefix = `CRIER_${network.id.toUpperCase()}_CLIENT`;
    return [[`${prefix}_ID`, app.clientId], [`${prefix}_SECRET`, app.clientSecret]];
  }));
}

/** Connects the sandbox accounts the emulators hold (@sandbox_x, sandbox.test) to the org, creating or refreshing them. */
export async function connectSandboxAccounts(db: Db, box: SecretBox, sandbox: Sandbox, orgId: number): Promise<SandboxAccount[]> {
  const accounts: SandboxAccount[] = [];
  for (const { emulator } of sandbox.emulators) {
    for (const seed of (await emulator.sandboxAccounts?.()) ?? []) {
      const { exampleBlock, ...account } = seed;
      const id = await upsertSocialAccount(db, box, { orgId, sandbox: true, ...account });
      accounts.push({ id: encodeId(id), network: seed.network, username: seed.username, ...(exampleBlock ? { exampleBlock } : {}) });
    }
  }
  return accounts;
}

/**
 * Makes the connect flow of every OAuth network work for the org: an app on each emulator registered
 * as the org's app (POST /v1/social-networks), and a user signed in who consents at once. Returns
 * the networks, in the order of the guide.
 */
export async function prepareSandboxConnects(db: Db, box: SecretBox, sandbox: Sandbox, orgId: number, publicBaseUrl: string): Promise<NetworkId[]> {
  const callback = (network: NetworkId) => `${publicBaseUrl}/oauth/callback/${network}`;
  const connectable: NetworkId[] = [];
  for (const { name, emulator, networks } of sandbox.emulators) {
    const oauth = networks.filter((network) => network.connect.kind === 'oauth').map((network) => network.id);
    if (!oauth.length || !emulator.prepareConnect) continue;
    const app = { clientId: `sandbox-${name}`, clientSecret: randomBytes(16).toString('hex') };
    emulator.prepareConnect({ ...app, redirectUris: oauth.map(callback) });
    // Comments and messages pushed by the networks reach the org's sandbox accounts through this app.
    emulator.subscribeInbound?.({ callbackUrl: (network) => `${publicBaseUrl}/inbound/${network}`, appId: app.clientId, appSecret: app.clientSecret });
    for (const network of oauth) {
      await saveSocialNetwork(db, box, orgId, { network, client_key: app.clientId, client_secret: app.clientSecret });
      connectable.push(network);
    }
  }
  return connectable;
}

const RUN_KEY_NAME = 'sandbox run';

/**
 * The key printed for this sandbox run. The previous run's key is revoked, so the only sandbox key
 * that works is the one on screen (the admin key of the very first start is a different key, kept).
 */
export async function issueSandboxRunKey(db: Db, orgId: number): Promise<string> {
  await revokeApiKeysNamed(db, orgId, RUN_KEY_NAME);
  return (await createApiKey(db, orgId, RUN_KEY_NAME)).key;
}
