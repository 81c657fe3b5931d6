// Shared types for the twelve networks. A network's specifics live in its own folder;
// the rest of Crier only sees these shapes.
import type { Readable } from 'node:stream';
import type { FieldIssue } from '../core/errors.ts';
import type { TObject } from '../validation/json-schema.ts';

export const NETWORKS = [
  'x', 'threads', 'linkedin', 'instagram', 'bluesky', 'youtube',
  'facebook', 'tiktok', 'google_business', 'pinterest', 'vimeo', 'reddit',
] as const;

export type NetworkId = (typeof NETWORKS)[number];

export function isNetworkId(value: unknown): value is NetworkId {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
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

/**
 * A network's platform block. Its schema (validated by Ajv; unknown keys are stripped and reported as
 * warnings before validation, so schemas do not set additionalProperties) and its rules apply in two
 * ways, kept apart so that what a block says is judged the same whatever the post targets:
 *  - `schema` and `blockRules`: everything that concerns the block alone (types, enums, lengths in the
 *    spec's units, required fields, how its fields combine, the text they refer to). They run whenever
 *    the block is present, targeted or not, and cannot see the targets.
 *  - `targetRules`: what holds only because an account of the network is targeted (the shape of the
 *    shared containers for that network, cross-posting, a block the network cannot publish without).
 *    `block` is undefined when the request has none.
 */
export interface NetworkOptions {
  network: NetworkId;
  schema: TObject;
  blockRules(block: Record<string, unknown>, post: PostContent): FieldIssue[];
  targetRules(block: Record<string, unknown> | undefined, ctx: TargetContext): FieldIssue[];
  /**
   * Named examples of a create body that uses the block, shown in the OpenAPI document beside the
   * network-neutral ones (http/openapi-examples.ts): OpenAPI Example Objects, by name.
   */
  examples?: Record<string, { summary: string; value: Record<string, unknown> }>;
}

/** A connected account as an adapter sees it: decrypted credentials, never logged. */
export interface AccountCredentials {
  id: number;
  orgId: number;
  network: NetworkId;
  username: string;
  networkUniqueId: string;
  serviceUrl: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  /** A long-lived credential used instead of OAuth (bluesky app password). */
  credential: string | null;
  /**
   * Connected through the operator's own app of the network (CRIER_<NETWORK>_CLIENT_ID/_SECRET, the
   * "managed key") rather than an app the organization registered (POST /v1/social-networks).
   */
  managedApp?: boolean;
}

/** What a published container is known by on its network. */
export interface PartRef {
  platformId: string;
  url: string;
  /** What later containers need to reply to this one (bluesky: uri and cid). */
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

/**
 * Downloads a file a post names by URL: media, and any other file URL a platform block carries (a
 * cover or thumbnail URL). Crier's own media is read from storage; every other URL goes through the
 * SSRF guard, at publish time. Adapters never fetch such a URL any other way.
 */
export type MediaFetcher = (url: string) => Promise<{ bytes: Buffer; contentType: string }>;

/**
 * A file a post names, opened for reading in pieces: chunked and resumable uploads read the byte
 * range they send, so a video is never held whole in memory. Crier's own media is read from storage;
 * a file from another URL is streamed through the SSRF guard (up to its cap) into a temporary file
 * before the first read, removed when the engine disposes of the source at the end of the attempt.
 */
export interface MediaSource {
  size: number;
  /** The media type the file was served or stored with, parameters stripped, lower case. */
  contentType: string;
  /** The bytes `start`..`end` (inclusive), or all of them. */
  read(range?: { start: number; end: number }): Readable;
  /** All the bytes at once: for small files (images) only. */
  bytes(): Promise<Buffer>;
  /** Lets go of what opening it took (a temporary file); the engine calls it, never an adapter. */
  dispose?(): Promise<void>;
}

export type MediaOpener = (url: string) => Promise<MediaSource>;

/**
 * Every address an adapter learns from a user rather than from Crier's configuration is reached through
 * the SSRF guard (https only, addresses judged when the socket opens, redirects judged again):
 *  - files a post names (containers' media, a block's cover or thumbnail URL): `fetchMedia`;
 *  - any other call to such an address (a Bluesky account's PDS named by its DID document): `userFetch`.
 * The network's own API hosts (configured, e.g. CRIER_X_API_URL) are called directly.
 */
export interface PublishInput {
  account: AccountCredentials;
  containers: ContainerInput[];
  /** The request's platform block for this network, if any. */
  block: Record<string, unknown> | undefined;
  fetchMedia: MediaFetcher;
  /** The same files, opened for ranged reads (MediaSource). */
  openMedia: MediaOpener;
  /** A standard fetch through the SSRF guard, for an API address the user chose. */
  userFetch: typeof fetch;
  /** New tokens after a refresh; stored encrypted before the next call needs them. */
  saveTokens(tokens: { accessToken?: string; refreshToken?: string; expiresAt?: Date | null }): Promise<void>;
  /** What the adapter stored when it last asked to wait (PublishWait); undefined on a fresh start. */
  checkpoint?: Record<string, unknown>;
  /** The network's shared counters in PostgreSQL (a daily quota pool, a cap on distinct creators). */
  ledger: NetworkLedger;
  /**
   * Which of these network post ids of the account another destination already owns (published
   * through Crier or imported): a search for this destination's own post skips them. Given by the
   * publishing engine; absent elsewhere (an engagement call publishes nothing).
   */
  ownedElsewhere?(platformIds: string[]): Promise<Set<string>>;
}

/**
 * A network's own counters, shared by every worker of every process and kept across restarts (table
 * network_ledger, one row per entry): what a quota pool the network imposes on the whole app has
 * spent, and by whom. Entries are never removed by Crier's publishing; `spent(since)` reads a window.
 */
export interface NetworkLedger {
  /**
   * Runs `fn` in one transaction holding the pool's lock (pools are per network: 'uploads',
   * 'direct_post_creators'…): what it reads cannot change until it returns, and what it records is
   * committed with it. Keep `fn` short: every worker admitting to the pool waits for it.
   */
  withPool<T>(pool: string, fn: (pool: LedgerPool) => Promise<T>): Promise<T>;
  /** The same figures without the lock (reports: GET /v1/usage). */
  read<T>(pool: string, fn: (pool: Omit<LedgerPool, 'record'>) => Promise<T>): Promise<T>;
}

export interface LedgerPool {
  /** PostgreSQL's clock when the transaction began: judge windows by it, not the worker's. */
  readonly now: Date;
  /** Entries at or after `since`, summed per subject and organization, oldest first spender first. */
  spent(since: Date): Promise<LedgerSpend[]>;
  /** One more entry, at `now`. */
  record(entry: { subject: string; orgId: number; units: number }): Promise<void>;
}

export interface LedgerSpend {
  /** What the network counts: a creator's id, an account… */
  subject: string;
  orgId: number;
  units: number;
  entries: number;
  first: Date;
  last: Date;
}

/**
 * One publish of one target, prepared: credentials checked, text and media validated (a problem
 * throws PublishError before anything is written to the network).
 */
export interface PreparedPublish {
  /** Chosen before the call and stored, so a crash between call and record can be reconciled. */
  reserve(position: number): Record<string, unknown>;
  /**
   * Publishes container `position`; `root` is the first container's ref for replies. The call that
   * publishes is its last network call: a `rate_limited` or `quota` refusal from it means the
   * container is not published, and the engine sends it again without reconciling.
   */
  publishPart(position: number, reservation: Record<string, unknown>, root: PartRef | undefined): Promise<PartRef>;
  /**
   * After a crash: is container `position` (reserved with `reservation`) on the network? Returns its
   * ref, 'absent' when the network can say for sure it is not, or throws PublishError('unknown').
   */
  reconcile(position: number, reservation: Record<string, unknown>, root: PartRef | undefined): Promise<PartRef | 'absent'>;
}

/** A network's publishing side. The engine only ever talks to this. */
export interface NetworkAdapter {
  network: NetworkId;
  prepare(input: PublishInput): Promise<PreparedPublish>;
}
