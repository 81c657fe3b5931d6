// The contract between Crier and a network: everything Crier knows of one network, as one object
// exported by src/networks/<id>/index.ts and listed once in registry.ts. The rest of Crier asks the
// registry about a network (its block, its video profile, how it connects, whether it publishes)
// and never names one.
//
// A file of its own rather than more of types.ts: types.ts holds the shapes the engine, the rules and
// the OAuth side share (and oauth.ts imports it); the Network object composes those with oauth.ts's
// NetworkOAuth, which types.ts could not import without a cycle.
import type { NetworkEnv } from '../config.ts';
import type { NetworkCapabilities, PublishedPost } from './capabilities.ts';
import type { VideoProfile } from './video.ts';
import type { NetworkOAuth } from './oauth.ts';
import type { ContainerInput, NetworkAdapter, NetworkId, NetworkLedger, NetworkOptions, PreflightPost } from './types.ts';

/**
 * One network. `S` is the shape of its own settings, read from the environment by `config` at start
 * (loadConfig) and handed back to its factories (`connect`, `publisher`) through NetworkContext.
 */
export interface Network<S = unknown> {
  id: NetworkId;
  /** For people: "LinkedIn", "Google Business Profile". */
  label: string;
  /** Its platform block: schema, block rules, target rules (types.ts). */
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
   * Fields of the block that do nothing for this post (Pinterest's cover on an image pin), each with
   * why: harmless, so the create drops them with a warning, as it does a wrongly cased key.
   */
  ignoredFields?(post: PreflightPost): { field: string; why: string }[];
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
  | { kind: 'password'; login(ctx: NetworkContext<S>, input: PasswordLoginInput): Promise<PasswordAccount> };

/** POST /v1/social-accounts/<network>: a handle and an app password (never the account's main password). */
export interface PasswordLoginInput {
  handle: string;
  appPassword: string;
}

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

/** What `crier start --sandbox` needs of a network. */
export interface NetworkSandbox {
  /** The emulator that serves it; networks naming the same one share one instance (one origin). */
  emulator: SandboxEmulatorSpec;
  /** The environment that points Crier at the running emulator. */
  env(url: string): Record<string, string>;
}

/**
 * An emulator as the sandbox starts it. `start` imports the emulator module itself: emulators are
 * development code, loaded only by `crier start --sandbox`, never by a process that merely lists networks.
 */
export interface SandboxEmulatorSpec {
  /** Names the sandbox app registered on it (`sandbox-<name>`). */
  name: string;
  /**
   * `fetchMedia`: how an emulator that downloads the media a post names (as its network does) fetches
   * it; the sandbox passes one through Crier's SSRF guard (sandbox.ts). Absent: the emulator's own.
   */
  start(host: string, fetchMedia?: typeof fetch): Promise<SandboxEmulator>;
}

export interface SandboxEmulator {
  url: string;
  close(): Promise<void>;
  /** Registers the org's OAuth app and signs in a user who consents at once (OAuth networks). */
  prepareConnect?(app: { clientId: string; clientSecret: string; redirectUris: string[] }): void;
  /** Creates the accounts connected for the default org on every run, and says what to store. */
  sandboxAccounts?(): Promise<SandboxAccountSeed[]>;
  /**
   * The operator's app registered on the emulator (the "managed key": CRIER_<NETWORK>_CLIENT_ID and
   * _SECRET point Crier at it), for networks whose sandbox accounts connect through it.
   */
  managedApp?(): { clientId: string; clientSecret: string };
  /**
   * Sends the webhooks of the networks it serves that push comments or messages (Threads, Instagram)
   * to Crier's inbound URL, signed with the org's app, as a developer subscribes their app: called
   * once the sandbox registered that app (`prepareConnect`).
   */
  subscribeInbound?(subscription: { callbackUrl(network: NetworkId): string; appId: string; appSecret: string }): void;
  /**
   * Someone else comments on one of the account's published posts, or answers a comment: how the
   * sandbox lets a newcomer try replies (`POST /v1/sandbox/posts/:id/comments`). Where the network
   * pushes comments (subscribeInbound), the emulator sends its webhook as the network would.
   */
  addComment?(comment: SandboxComment): Promise<{ commentId: string }>;
  /** Someone sends the account a direct message (networks with messaging): `POST /v1/sandbox/social-accounts/:id/messages`. */
  addMessage?(message: SandboxMessage): Promise<{ messageId: string }>;
}

/** Whose account, on which of the networks an emulator serves (the Facebook emulator serves Instagram too). */
export interface SandboxAccountRef {
  network: NetworkId;
  /** The account's id on the network (the connected account's networkUniqueId) and its username. */
  networkUniqueId: string;
  username: string;
}

export interface SandboxComment extends SandboxAccountRef {
  /** The destination's containers on the network, as the engagement capabilities read them. */
  post: PublishedPost;
  /** An id from GET /v1/posts/:id/replies: the comment to answer instead of the post. */
  parentCommentId?: string;
  text: string;
  /** The commenter's username on the emulator (created when unknown). */
  author: string;
}

export interface SandboxMessage extends SandboxAccountRef {
  text: string;
  /** The sender's username on the emulator (created when unknown). */
  from: string;
}

/** What the running sandbox lets the API do on its emulators (AppContext.sandbox). */
export interface SandboxControls {
  /** undefined when the emulator serving that network cannot. */
  addComment(comment: SandboxComment): Promise<{ commentId: string }> | undefined;
  addMessage(message: SandboxMessage): Promise<{ messageId: string }> | undefined;
}

export interface SandboxAccountSeed {
  network: NetworkId;
  username: string;
  nickname: string;
  networkUniqueId: string;
  serviceUrl?: string | null;
  credential?: string;
  accessToken?: string;
  refreshToken?: string;
  /** Connected through the operator's app (managedApp) rather than the org's own. */
  managedApp?: boolean;
  /** Connected as if the messaging scope was asked for (its direct messages are received). */
  messaging?: boolean;
  /**
   * The platform block a post to this account needs in the sandbox (Reddit's subreddit and title,
   * Pinterest's board): the guide's example posts carry it.
   */
  exampleBlock?: Record<string, unknown>;
}
