// CRIER_<NETWORK>_BASE_URL: one origin that replaces every host of a network (its emulator, in tests
// and the sandbox). Every network reads it except x and bluesky, which have variables of their own.
import type { NetworkConfig, NetworkSandbox, SandboxEmulatorSpec } from './contract.ts';
import type { NetworkId } from './types.ts';

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
