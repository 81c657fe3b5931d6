// Network id -> adapter. Adding a network is one folder and one line here.
import type { Config } from '../config.ts';
import { createBlueskyAdapter } from './bluesky/adapter.ts';
import type { NetworkAdapter, NetworkId } from './types.ts';
import { createXAdapter } from './x/adapter.ts';

export function createAdapters(config: Config): Partial<Record<NetworkId, NetworkAdapter>> {
  return {
    x: createXAdapter({ apiUrl: config.networks.xApiUrl }),
    bluesky: createBlueskyAdapter({ service: config.networks.blueskyService }),
  };
}
