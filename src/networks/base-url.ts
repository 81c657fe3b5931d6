// CRIER_<NETWORK>_BASE_URL: one origin that replaces every host of a network (its emulator, in tests
// and the sandbox). Every network reads it except x and bluesky, which have variables of their own.
import type { Network, NetworkAdapter, NetworkConfig, NetworkContext, NetworkLimits, NetworkMedia, NetworkOptions } from './contract.ts';
import type { NetworkSandbox, SandboxEmulatorSpec } from '../sandbox/contract.ts';
import type { NetworkOAuth } from './oauth.ts';
import type { NetworkId } from '../core/network-id.ts';

export interface BaseUrlSettings {
  /** Undefined: the network's real hosts. */
  baseUrl: string | undefined;
}

const variable = (network: NetworkId) => `CRIER_${network.toUpperCase()}_BASE_URL`;

export function baseUrlConfig(network: NetworkId): NetworkConfig<BaseUrlSettings> {
  const name = variable(network);
  return { variables: [name], read: (env) => ({ baseUrl: env.optionalUrl(name) }) };
}

/** The sandbox of a network that reads only its base URL: the emulator's origin there. */
export function baseUrlSandbox(network: NetworkId, emulator: SandboxEmulatorSpec): NetworkSandbox {
  return { emulator, env: (url) => ({ [variable(network)]: url }) };
}

/** The parts of a network that connects through OAuth and reads only its base URL. */
export interface BaseUrlNetworkParts {
  id: NetworkId;
  label: string;
  options: NetworkOptions;
  media: NetworkMedia;
  oauth(baseUrl: string | undefined): NetworkOAuth;
  /** `ctx`: what every network's factories get (NetworkContext), e.g. PUBLIC_BASE_URL. */
  publisher?(baseUrl: string | undefined, ctx: NetworkContext<BaseUrlSettings>): NetworkAdapter;
  limits: NetworkLimits;
  emulator: SandboxEmulatorSpec;
  /** NetworkConnect's loginConfiguration. */
  loginConfiguration?: string;
}

/** Such a network, assembled (every network but x and bluesky is one); each adds its apiVersions. */
export function baseUrlNetwork(parts: BaseUrlNetworkParts): Omit<Network<BaseUrlSettings>, 'apiVersions'> {
  const { id, label, options, media, limits, publisher } = parts;
  return {
    id, label, options, media, limits,
    connect: { kind: 'oauth', oauth: ({ settings }) => parts.oauth(settings.baseUrl), ...(parts.loginConfiguration ? { loginConfiguration: parts.loginConfiguration } : {}) },
    ...(publisher ? { publisher: (ctx: NetworkContext<BaseUrlSettings>) => publisher(ctx.settings.baseUrl, ctx) } : {}),
    config: baseUrlConfig(id),
    sandbox: baseUrlSandbox(id, parts.emulator),
  };
}
