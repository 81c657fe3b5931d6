// Shared types for the twelve networks. A network's specifics live in its own folder;
// the rest of Crier only sees these shapes.
import type { TSchema } from 'typebox';

export const NETWORKS = [
  'x', 'threads', 'linkedin', 'instagram', 'bluesky', 'youtube',
  'facebook', 'tiktok', 'google_business', 'pinterest', 'vimeo', 'reddit',
] as const;

export type NetworkId = (typeof NETWORKS)[number];

export function isNetworkId(value: unknown): value is NetworkId {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}

/** One problem with one field of a request; `field` is a dotted path such as `instagram.collaborators[2]`. */
export interface FieldIssue {
  field: string;
  message: string;
}

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

/** What a platform block's request-time rules may look at besides the block itself. */
export interface CreateContext {
  containers: ContainerInput[];
  /** Networks of the accounts the request resolved to. */
  targetNetworks: ReadonlySet<NetworkId>;
  /** Every platform block of the request, already schema-valid and stripped of unknown keys. */
  blocks: Partial<Record<NetworkId, Record<string, unknown>>>;
}

/**
 * A network's platform block: its TypeBox schema (validated by Ajv; unknown keys are stripped and
 * reported as warnings before validation, so schemas do not set additionalProperties) and its
 * cross-field rules, which run only when an account of that network is targeted.
 */
export interface NetworkOptions {
  network: NetworkId;
  schema: TSchema;
  /** Request-time rules. `block` is undefined when the request has no block for this network. */
  check(block: Record<string, unknown> | undefined, ctx: CreateContext): FieldIssue[];
}
