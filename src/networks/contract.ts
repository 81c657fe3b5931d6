// The contract between Crier and a network: everything Crier knows of one network, as one object
// exported by src/networks/<id>/index.ts and listed once in registry.ts. The rest of Crier asks the
// registry about a network (its block, its video profile, how it connects, whether it publishes)
// and never names one.
// Below the Network object: the adapter protocol (a network's options and its publishing side), the
// shapes only the engine and the networks share. The post and account vocabulary every room uses is
// in src/core/.
import type { Readable } from 'node:stream';
import type { NetworkEnv } from '../config.ts';
import type { AccountCredentials } from '../core/account.ts';
import type { FieldIssue } from '../core/errors.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { NetworkLedger } from '../core/ledger.ts';
import type { ContainerInput, PartRef, PostContent, PreflightPost, TargetContext } from '../core/post.ts';
import type { TObject } from '../validation/json-schema.ts';
import type { NetworkSandbox } from '../sandbox/contract.ts';
import type { NetworkCapabilities } from './capabilities.ts';
import type { NetworkOAuth } from './oauth.ts';
import type { MediaKind } from './media-kind.ts';
import type { VideoProfile } from './video.ts';

/**
 * One network. `S` is the shape of its own settings, read from the environment by `config` at start
 * (loadConfig) and handed back to its factories (`connect`, `publisher`) through NetworkContext.
 */
export interface Network<S = unknown> {
  id: NetworkId;
  /** For people: "LinkedIn", "Google Business Profile". */
  label: string;
  /** Its platform block: schema, block rules, target rules (below). */
  options: NetworkOptions;
  media: NetworkMedia;
  connect: NetworkConnect<S>;
  limits: NetworkLimits;
  /** Its publishing side; absent: publishing to it is "not available yet" (the engine says so). */
  publisher?(ctx: NetworkContext<S>): NetworkAdapter;
  /** What it can do beyond publishing (capabilities.ts), each declared only once it works. */
  capabilities?(ctx: NetworkContext<S>): NetworkCapabilities;
  /**
   * Its figures for an organization, from its ledger (a shared quota pool: what is spent, what is
   * left, when it resets), shown by GET /v1/usage under `networks.<id>`.
   */
  usage?(ctx: NetworkContext<S>, ledger: NetworkLedger, orgId: number): Promise<Record<string, unknown>>;
  config: NetworkConfig<S>;
  /**
   * Every version of the network's API that Crier pins (a header, a path segment), each with the
   * date the network documents as its end; empty when the network's API is not versioned that way.
   * test/networks/api-versions.test.ts fails three months before a sunset.
   */
  apiVersions: readonly ApiVersion[];
  /** How `crier start --sandbox` emulates it; absent: the sandbox leaves it out. */
  sandbox?: NetworkSandbox;
}

/** A version of a network's API that Crier pins. */
export interface ApiVersion {
  /** Where it is carried: "LinkedIn-Version header", "Graph API path". */
  carrier: string;
  version: string;
  /**
   * The first day the network may stop serving it (YYYY-MM-DD), as documented: a published sunset
   * date, or the documented minimum support window counted from the version's release.
   */
  sunset: string;
  /** Where the date is documented, and what it says. */
  source: string;
}

/** What a network's factories get at start: its own settings, and the switches every network shares. */
export interface NetworkContext<S> {
  settings: S;
  /** The SSRF guard lets loopback through (CRIER_ALLOW_LOOPBACK_FETCH, tests only). */
  allowLoopbackFetch: boolean;
  /** Where Crier serves its media (PUBLIC_BASE_URL): networks that fetch media by URL fetch it there. */
  publicBaseUrl: string;
}

export interface NetworkMedia {
  /**
   * How the network receives a file: Crier sends the bytes (`upload`), or hands it a URL it downloads
   * itself (`public_url`: Crier's media must then be reachable from the internet).
   */
  delivery: 'upload' | 'public_url';
  /** The root must carry an image or a video (Instagram, TikTok, YouTube, Pinterest, Vimeo): a text post cannot be published. */
  requiresMedia?: true;
  /** Every video profile of the network, by key. A profile's id carries a version (`x@1`). */
  profiles: Readonly<Record<string, VideoProfile>>;
  /**
   * The profile a target's video must meet: the network's, or the variant its platform block selects
   * (a Reel, a Story, a Short). Undefined for a network that takes no video through Crier.
   */
  videoProfile(block: Record<string, unknown> | undefined): VideoProfile | undefined;
  /**
   * The network's judgement of `post` (its shape.ts): the checks its publishing side makes before any
   * call — media kinds and counts, how the block's fields combine, text lengths in the network's own
   * counting — made from the post alone. Throws the PublishError publishing fails the destination
   * with. One function, called by the adapter's `prepare`, by `POST /v1/posts?dry_run=true` (whose
   * reason is that error's message) and by the create (`when: 'create'`: what the spec refuses when a
   * post is created, which leaves out the text lengths it leaves to publishing: X's and Bluesky's).
   */
  judge(post: PreflightPost, when?: JudgedWhen): void;
  /**
   * The post as the network will publish it (its shape.ts, counted with the very counters and limits
   * `judge` refuses with): each part it publishes (the root, then each reply or comment; the root
   * alone where it takes none), with the text it receives (the block's `content` on the root, a title
   * apart, a text the adapter cuts), its length in the network's own unit, the limit (null where
   * Crier judges none) and the media. Never throws: the dry run shows it beside judge's refusal.
   */
  measure(post: PreflightPost): MeasuredPost;
  /**
   * Fields of the block that do nothing for this post (Pinterest's cover on an image pin), each with
   * why: harmless, so the create drops them with a warning, as it does a wrongly cased key.
   */
  ignoredFields?(post: PreflightPost): { field: string; why: string }[];
}

/** How a network counts a text (measure.ts has the counters; posts/schema.ts says what each means). */
export const TEXT_UNITS = ['weighted', 'graphemes', 'characters', 'utf16', 'utf8_bytes', 'emoji_bytes'] as const;
export type TextUnit = (typeof TEXT_UNITS)[number];

/** A text as the network receives it, counted its way. */
export interface MeasuredText {
  text: string;
  length: number;
  /** The most the network takes in `unit`; null where Crier judges no limit. */
  limit: number | null;
  unit: TextUnit;
}

/** One part of a post as the network publishes it. */
export interface MeasuredPart extends MeasuredText {
  /** The post itself, a reply in its thread (a post of its own), or a comment under the post. */
  role: 'post' | 'reply' | 'comment';
  /** A title the network shows apart from the text (a video's, a pin's, a submission's). */
  title?: MeasuredText;
  media: { filename: string; kind: MediaKind }[];
  /** What the network does with the text that a person would not guess (a Story has no caption). */
  note?: string;
}

export interface MeasuredPost {
  parts: MeasuredPart[];
  /** Later containers the network does not publish (it takes no replies): how many. */
  leftOut: number;
}

/** Publishing (and the dry run, which says what publishing will say), or the create's static refusals. */
export type JudgedWhen = 'publish' | 'create';

/** How accounts of the network are connected. */
export type NetworkConnect<S> =
  | {
      kind: 'oauth';
      oauth(ctx: NetworkContext<S>): NetworkOAuth;
      /**
       * The network's login dialog takes a saved configuration in place of scopes (Meta's Facebook Login
       * for Business `config_id`): what it is called, for people. Absent: apps register scopes only.
       */
      loginConfiguration?: string;
    }
  | {
      kind: 'password';
      /**
       * The body's credential fields, by name; absent: APP_PASSWORD_FIELDS (a handle and an app
       * password, never the account's main password). A bot token network declares its own.
       */
      fields?: readonly CredentialField[];
      login(ctx: NetworkContext<S>, input: PasswordLoginInput): Promise<PasswordAccount>;
      /**
       * A second way in, through OAuth, for a network whose accounts live on servers their users name
       * (Mastodon's instances): no org registers an app, Crier registers its own on each server on
       * first use (NetworkOAuth.instances) and the connect names the server (`instance_url`).
       */
      oauth?(ctx: NetworkContext<S>): NetworkOAuth;
    };

/** One field of the body of POST /v1/social-accounts/<network> for a network that connects without OAuth. */
export interface CredentialField {
  name: string;
  /** For people, and the OpenAPI document. */
  description: string;
  maxLength: number;
  /** A secret (an app password, a bot token): stored encrypted, never returned, redacted from logs. */
  secret: boolean;
  /**
   * The body may leave it out (a network connected in one of two ways: Discord's webhook URL, or a bot
   * token with a channel): the network's `login` then says which combination it takes.
   */
  optional?: true;
}

/** What an app-password network's connect body carries: `{handle, appPassword}`. */
export const APP_PASSWORD_FIELDS: readonly CredentialField[] = [
  { name: 'handle', description: "the account's handle", maxLength: 253, secret: false },
  { name: 'appPassword', description: "an app password made for Crier (never the account's main password)", maxLength: 200, secret: true },
];

/** The credential fields a network connects with (its own, else an app password's). */
export const credentialFieldsOf = (connect: NetworkConnect<unknown>): readonly CredentialField[] =>
  (connect.kind === 'password' ? connect.fields ?? APP_PASSWORD_FIELDS : []);

/** POST /v1/social-accounts/<network>: each of the network's credential fields sent, by name (1 character at least); an optional one left out is absent. */
export type PasswordLoginInput = Readonly<Record<string, string>>;

/** What a password login proved, to be stored (the credential encrypted, so the session can be re-established). */
export interface PasswordAccount {
  username: string;
  networkUniqueId: string;
  serviceUrl: string | null;
  credential: string;
  accessToken?: string;
  refreshToken?: string;
}

/**
 * What the network tolerates, as facts from its documentation (docs/networks/*.md), applied by
 * the publishing engine before it calls the network. Absent: nothing documented to go by.
 */
export interface NetworkLimits {
  /**
   * Publishes to this network one process has calling at once; past it, destinations wait their turn
   * in the process (for an API that limits calls in flight). No network declares one yet.
   */
  concurrency?: number;
  /**
   * The most an account may publish in any window: a burst beyond it is spread over the following
   * windows (each destination waits for its turn, holding no worker) instead of refused by the
   * network. Operators with other quotas set CRIER_ACCOUNT_QUOTAS (README).
   */
  accountQuota?: AccountQuota;
}

export interface AccountQuota {
  /** Units per window. */
  max: number;
  windowMs: number;
  /** What the network counts: each post (`posts`), or each container of a thread (`containers`: X, Bluesky). */
  counts: 'posts' | 'containers';
}

/**
 * The environment variables a network reads. loadConfig calls `read` with the rest of the
 * configuration, so a bad value stops Crier at start with the other problems.
 */
export interface NetworkConfig<S> {
  variables: readonly string[];
  read(env: NetworkEnv): S;
}

// The adapter protocol: what a network's options and publishing side offer the engine.

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
