// What video a network takes, as data: the VideoProfile type, and the lookup processMedia uses. The
// profiles themselves live with each network (src/networks/<network>/media.ts, figures and sources
// there); nothing here knows one network from another.
import { NETWORK_LIST, networkFor } from '../networks/registry.ts';
import type { NetworkId } from '../networks/types.ts';
import type { Container } from './probe.ts';

export interface VideoProfile {
  id: string;
  /** For messages: "X", "Instagram Reels". */
  label: string;
  /** Undefined: anything goes (the network transcodes whatever it is given). */
  containers?: readonly Exclude<Container, 'other'>[];
  /** ffprobe codec names. */
  videoCodecs?: readonly string[];
  audioCodecs?: readonly string[];
  pixelFormats?: readonly string[];
  maxWidth?: number;
  maxHeight?: number;
  minWidth?: number;
  minHeight?: number;
  /** Bounds on the shorter / longer side, whatever the orientation. */
  minShortSide?: number;
  maxLongSide?: number;
  /** width / height */
  minAspect?: number;
  maxAspect?: number;
  minFps?: number;
  maxFps?: number;
  minSeconds?: number;
  maxSeconds?: number;
  minBytes?: number;
  maxBytes?: number;
  /** Whole-file bits per second. */
  maxBitrate?: number;
}

/** Every network's video profiles, by key (the key is unique across networks: test/networks/contract.test.ts). */
export const VIDEO_PROFILES: Readonly<Record<string, VideoProfile>> = Object.assign({}, ...NETWORK_LIST.map((network) => network.media.profiles));

/**
 * The profile a target's video must meet: the network's, or the variant its platform block selects
 * (a Reel, a Story, a Short). Undefined for a network that takes no video through Crier.
 */
export function videoProfileFor(network: NetworkId, block: Record<string, unknown> | undefined): VideoProfile | undefined {
  return networkFor(network).media.videoProfile(block);
}
