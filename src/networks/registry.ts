// Network id -> adapter (publishing) and OAuth (connecting). Adding a network is one folder and a
// line in each list here.
import type { Config } from '../config.ts';
import { createBlueskyAdapter } from './bluesky/adapter.ts';
import type { NetworkOAuth } from './oauth.ts';
import type { NetworkAdapter, NetworkId } from './types.ts';
import { createXAdapter } from './x/adapter.ts';
import { createXOAuth } from './x/oauth.ts';

export function createAdapters(config: Config): Partial<Record<NetworkId, NetworkAdapter>> {
  return {
    x: createXAdapter({ apiUrl: config.networks.xApiUrl }),
    bluesky: createBlueskyAdapter({ service: config.networks.blueskyService }),
  };
}

/** Every network that connects through OAuth (bluesky connects with an app password instead). */
export function createOAuthProviders(config: Config): Partial<Record<NetworkId, NetworkOAuth>> {
  const base = config.networks.baseUrls;
  return {
    x: createXOAuth({ apiUrl: config.networks.xApiUrl, authorizeUrl: config.networks.xAuthorizeUrl }),
    // one line per network, in NETWORKS order
  };
}
