// The one list of networks, and the registry built from it once at start. A network is one folder
// and one object (./<id>/index.ts, the contract in contract.ts); adding one is a folder, an emulator
// and a line here.
//
// Two levels, because two kinds of question are asked:
//  - what a network is (its block, its media rules, how it connects, its limits): the same in every
//    process whatever the configuration, answered by `networkFor` (validation, media, accounts);
//  - its configured sides (the OAuth provider and the adapter, built with its settings from
//    loadConfig): a NetworkRegistry, built once at start by createNetworkRegistry(config) and handed
//    to the HTTP app, the publishing worker and the token refresher.
import type { Config, ManagedApps } from '../config.ts';
import { bluesky } from './bluesky/index.ts';
import { discord } from './discord/index.ts';
import type { Network, NetworkAdapter, PasswordAccount, PasswordLoginInput } from './contract.ts';
import type { NetworkLedger } from '../core/ledger.ts';
import { facebook } from './facebook/index.ts';
import { googleBusiness } from './google_business/index.ts';
import { instagram } from './instagram/index.ts';
import { linkedin } from './linkedin/index.ts';
import { mastodon } from './mastodon/index.ts';
import type { NetworkOAuth } from './oauth.ts';
import { pinterest } from './pinterest/index.ts';
import { reddit } from './reddit/index.ts';
import { telegram } from './telegram/index.ts';
import { threads } from './threads/index.ts';
import { tiktok } from './tiktok/index.ts';
import type { NetworkCapabilities } from './capabilities.ts';
import type { NetworkId } from '../core/network-id.ts';
import { vimeo } from './vimeo/index.ts';
import { x } from './x/index.ts';
import { youtube } from './youtube/index.ts';

/**
 * Every network, one line each, in NETWORKS order (ids.ts). Each object is typed with its own
 * settings (Network<XSettings>…) and listed with them unknown: the registry only ever hands a network
 * the settings its own `config.read` produced.
 */
export const NETWORK_LIST: readonly Network[] = [
  x,
  threads,
  linkedin,
  instagram,
  bluesky,
  youtube,
  facebook,
  tiktok,
  googleBusiness,
  pinterest,
  vimeo,
  reddit,
  telegram,
  discord,
  mastodon,
];

const byId = new Map<NetworkId, Network>(NETWORK_LIST.map((network) => [network.id, network]));

/** What Crier knows of a network, whatever the configuration. */
export function networkFor(id: NetworkId): Network {
  return byId.get(id)!;
}

/** "Does this network connect with a password?" (bluesky's app password), else OAuth. */
export function connectsWithPassword(id: NetworkId): boolean {
  return networkFor(id).connect.kind === 'password';
}

/**
 * "Does this network connect through OAuth with an app Crier registers on each server itself?"
 * (a credential network that also offers OAuth: Mastodon's instances). No org registers an app for it.
 */
export function connectsThroughInstances(id: NetworkId): boolean {
  const connect = networkFor(id).connect;
  return connect.kind === 'password' && connect.oauth !== undefined;
}

/** What the network's login calls a saved configuration (Meta's config_id); undefined: it takes none. */
export function loginConfigurationOf(id: NetworkId): string | undefined {
  const connect = networkFor(id).connect;
  return connect.kind === 'oauth' ? connect.loginConfiguration : undefined;
}

/** The networks with their configured sides: built once at start, handed to whoever needs them. */
export interface NetworkRegistry {
  /** Every network, in NETWORKS order. */
  readonly all: readonly Network[];
  get(id: NetworkId): Network;
  /** The operator's own apps (CRIER_<NETWORK>_CLIENT_ID/_SECRET), for orgs that registered none. */
  readonly managedApps: ManagedApps;
  /** The OAuth side of every network that connects through OAuth, or offers it beside credentials (built on first use, then kept). */
  oauthProviders(): Partial<Record<NetworkId, NetworkOAuth>>;
  /** The publishing side of every network that has one; the others are "not available yet". */
  adapters(): Partial<Record<NetworkId, NetworkAdapter>>;
  /** What the network declares beyond publishing, built with its settings (empty when nothing). */
  capabilities(id: NetworkId): NetworkCapabilities;
  /** The network's figures for an organization (GET /v1/usage), undefined when it keeps none. */
  usage(id: NetworkId, ledger: NetworkLedger, orgId: number): Promise<Record<string, unknown>> | undefined;
  /** The login of a network that connects with a password; undefined for OAuth networks. */
  passwordLogin(id: NetworkId): ((input: PasswordLoginInput) => Promise<PasswordAccount>) | undefined;
}

export function createNetworkRegistry(config: Pick<Config, 'networks' | 'allowLoopbackFetch' | 'publicBaseUrl'> & Partial<Pick<Config, 'managedApps'>>): NetworkRegistry {
  const context = (network: Network) => ({ settings: config.networks[network.id], allowLoopbackFetch: config.allowLoopbackFetch, publicBaseUrl: config.publicBaseUrl });
  let oauth: Partial<Record<NetworkId, NetworkOAuth>> | undefined;
  let adapters: Partial<Record<NetworkId, NetworkAdapter>> | undefined;
  const capabilities = new Map<NetworkId, NetworkCapabilities>();
  return {
    all: NETWORK_LIST,
    managedApps: config.managedApps ?? {},
    get: networkFor,
    oauthProviders() {
      oauth ??= Object.fromEntries(NETWORK_LIST.flatMap((network) =>
        network.connect.oauth ? [[network.id, network.connect.oauth(context(network))]] : []));
      return oauth;
    },
    adapters() {
      adapters ??= Object.fromEntries(NETWORK_LIST.flatMap((network) =>
        network.publisher ? [[network.id, network.publisher(context(network))]] : []));
      return adapters;
    },
    capabilities(id) {
      const network = networkFor(id);
      let built = capabilities.get(id);
      if (!built) capabilities.set(id, built = network.capabilities?.(context(network)) ?? {});
      return built;
    },
    usage(id, ledger, orgId) {
      const network = networkFor(id);
      return network.usage?.(context(network), ledger, orgId);
    },
    passwordLogin(id) {
      const network = networkFor(id);
      if (network.connect.kind !== 'password') return undefined;
      const { login } = network.connect;
      return (input) => login(context(network), input);
    },
  };
}
