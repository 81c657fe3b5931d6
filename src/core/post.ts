// The post as every room speaks of it: containers of text and media, and the platform blocks a
// request carries per network. Validation, publishing and the networks' rules all read these shapes.
import type { NetworkId } from './network-id.ts';

export interface MediaInput {
  url: string;
  filename: string;
  altText?: string;
}

/** A container after defaults were applied (content '' and media [] when omitted). */
export interface ContainerInput {
  content: string;
  media: MediaInput[];
}

/** What a block rule may look at besides the block: the post's content and blocks, never its targets. */
export interface PostContent {
  containers: ContainerInput[];
  /** Every platform block of the request, already schema-valid and stripped of unknown keys. */
  blocks: Partial<Record<NetworkId, Record<string, unknown>>>;
}

/** A post as one target would publish it: its containers and the network's platform block. */
export interface PreflightPost {
  containers: ContainerInput[];
  block: Record<string, unknown> | undefined;
}

/** What a target rule sees besides: the networks of the accounts the request resolved to. */
export interface TargetContext extends PostContent {
  targetNetworks: ReadonlySet<NetworkId>;
}

/** What a published container is known by on its network. */
export interface PartRef {
  platformId: string;
  url: string;
  /** What later containers need to reply to this one (where the network needs more than the id). */
  ref?: Record<string, unknown>;
  /**
   * Published, but not quite as asked (Facebook refused the video's cover: it has its own thumbnail):
   * said on the destination (its `error`, though it is published).
   */
  note?: string;
  /**
   * A post that was already on the network, found after the network refused this one as a duplicate,
   * and shown to come from this destination's own attempt (created since its reservation, the same
   * text and media). The engine records it only if no other destination owns it.
   */
  adopted?: true;
}

/** A destination Crier published (or imported), as a capability addresses it. */
export interface PublishedPost {
  /** Container 0 on the network: the post itself. */
  root: PartRef;
  /** Every container on the network in position order (parts[0] is the root; thread replies and first comments after). */
  parts: PartRef[];
  /** The network's platform block the post was published with ({} for an imported post). */
  block: Record<string, unknown>;
}
