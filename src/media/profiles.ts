// What video a network takes, as data: the lookup processMedia uses (the VideoProfile type is the
// networks' own: ../networks/video.ts). The
// profiles themselves live with each network (src/networks/<network>/media.ts, figures and sources
// there); nothing here knows one network from another.
import { NETWORK_LIST, networkFor } from '../networks/registry.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { VideoProfile } from '../networks/video.ts';

/** Every network's video profiles, by key (the key is unique across networks: test/networks/contract.test.ts). */
export const VIDEO_PROFILES: Readonly<Record<string, VideoProfile>> = Object.assign({}, ...NETWORK_LIST.map((network) => network.media.profiles));

/**
 * The profile a target's video must meet: the network's, or the variant its platform block selects
 * (a Reel, a Story, a Short). Undefined for a network that takes no video through Crier.
 */
export function videoProfileFor(network: NetworkId, block: Record<string, unknown> | undefined): VideoProfile | undefined {
  return networkFor(network).media.videoProfile(block);
}

export type { VideoProfile };
