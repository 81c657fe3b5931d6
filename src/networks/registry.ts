// Network id -> adapter (publishing) and OAuth (connecting). Adding a network is one folder and a
// line in each list here.
import type { Config } from '../config.ts';
import { lazy } from '../lazy.ts';
import { createFacebookOAuth } from './facebook/oauth.ts';
import { createGoogleBusinessOAuth } from './google_business/oauth.ts';
import { createInstagramOAuth } from './instagram/oauth.ts';
import { createLinkedInAdapter } from './linkedin/adapter.ts';
import { createLinkedInOAuth } from './linkedin/oauth.ts';
import type { NetworkOAuth } from './oauth.ts';
import { createPinterestOAuth } from './pinterest/oauth.ts';
import { createRedditOAuth } from './reddit/oauth.ts';
import { createThreadsOAuth } from './threads/oauth.ts';
import { createTikTokOAuth } from './tiktok/oauth.ts';
import type { NetworkAdapter, NetworkId } from './types.ts';
import { createVimeoOAuth } from './vimeo/oauth.ts';
import { createYoutubeOAuth } from './youtube/oauth.ts';
import { createXAdapter } from './x/adapter.ts';
import { createXOAuth } from './x/oauth.ts';

export function createAdapters(config: Config): Partial<Record<NetworkId, NetworkAdapter>> {
  return {
    x: createXAdapter({ apiUrl: config.networks.xApiUrl }),
    linkedin: createLinkedInAdapter({ apiUrl: config.networks.baseUrls.linkedin ?? 'https://api.linkedin.com' }),
    bluesky: loadedOnFirstPublish('bluesky', '@atproto/api (publishing to Bluesky)', async () => {
      const { createBlueskyAdapter } = await import('./bluesky/adapter.ts');
      return createBlueskyAdapter({ service: config.networks.blueskyService });
    }),
  };
}

/**
 * An adapter whose module, and the network's SDK it imports, loads when it first publishes rather
 * than at start (see lazy.ts): the SDK costs memory in every process that never posts there.
 */
function loadedOnFirstPublish(network: NetworkId, what: string, load: () => Promise<NetworkAdapter>): NetworkAdapter {
  const adapter = lazy(what, load);
  return { network, prepare: async (input) => (await adapter()).prepare(input) };
}

/** Every network that connects through OAuth (bluesky connects with an app password instead). */
export function createOAuthProviders(config: Config): Partial<Record<NetworkId, NetworkOAuth>> {
  const base = config.networks.baseUrls;
  return {
    x: createXOAuth({ apiUrl: config.networks.xApiUrl, authorizeUrl: config.networks.xAuthorizeUrl }),
    threads: createThreadsOAuth(base.threads),
    linkedin: createLinkedInOAuth(base.linkedin),
    instagram: createInstagramOAuth(base.instagram),
    youtube: createYoutubeOAuth(base.youtube),
    facebook: createFacebookOAuth(base.facebook),
    tiktok: createTikTokOAuth(base.tiktok),
    google_business: createGoogleBusinessOAuth(base.google_business),
    pinterest: createPinterestOAuth(base.pinterest),
    vimeo: createVimeoOAuth(base.vimeo),
    reddit: createRedditOAuth(base.reddit),
    // one line per network, in NETWORKS order
  };
}
