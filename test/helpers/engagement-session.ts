// What network engagement tests share (pinterest, tiktok, google_business): a network's capabilities
// as the registry builds them for its emulator's origin, and an AccountSession for a user of it.
import type { AccountSession, NetworkCapabilities } from '../../src/networks/capabilities.ts';
import { createNetworkRegistry } from '../../src/networks/registry.ts';
import type { NetworkId } from '../../src/core/network-id.ts';

/** The capabilities `network` declares when its base URL is `baseUrl` (an emulator). */
export function capabilitiesAt(network: NetworkId, baseUrl: string): NetworkCapabilities {
  const networks = { [network]: { baseUrl } } as unknown as Record<NetworkId, unknown>;
  return createNetworkRegistry({ networks, allowLoopbackFetch: true, publicBaseUrl: 'https://crier.example' }).capabilities(network);
}

/** A session of an account of `network` holding `accessToken`; saved tokens are collected. */
export function sessionOf(network: NetworkId, networkUniqueId: string, accessToken: string | null): AccountSession & { saved: unknown[] } {
  const saved: unknown[] = [];
  return {
    saved,
    account: { id: 1, orgId: 1, network, username: 'someone', networkUniqueId, serviceUrl: null, accessToken, refreshToken: null, credential: null },
    saveTokens: async (tokens) => void saved.push(tokens),
    userFetch: fetch,
  };
}
