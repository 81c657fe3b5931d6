// What the sandbox (`crier start --sandbox`) needs of a network and its emulator, and what the running
// sandbox lets the API do on them. A network's folder fills these in (its sandbox.ts); the sandbox room
// itself never imports a network: the composition root hands it the registry's list.
import type { ConfigurableNetwork } from '../config.ts';
import type { NetworkId } from '../core/network-id.ts';
import type { PublishedPost } from '../core/post.ts';

/** A network as the sandbox sees it (the registry's Network is one): how it connects, and its sandbox. */
export interface SandboxedNetwork extends ConfigurableNetwork {
  id: NetworkId;
  sandbox?: NetworkSandbox;
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
   * it; the sandbox passes one through Crier's SSRF guard (start.ts). Absent: the emulator's own.
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
