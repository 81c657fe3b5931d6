// A publishing side whose module, and the network's SDK it imports, loads when it first publishes
// rather than at start (see ../lazy.ts): the SDK costs memory in every process that never posts there.
import { lazy } from '../lazy.ts';
import type { NetworkAdapter } from './contract.ts';
import type { NetworkId } from '../core/network-id.ts';

export function lazyAdapter(network: NetworkId, what: string, load: () => Promise<NetworkAdapter>): NetworkAdapter {
  const adapter = lazy(what, load);
  return { network, prepare: async (input) => (await adapter()).prepare(input) };
}
