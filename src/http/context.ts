// What route handlers need, passed explicitly rather than through globals.
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { NetworkRegistry } from '../networks/registry.ts';
import type { SandboxControls } from '../sandbox/contract.ts';
import type { PublishWaker } from '../publishing/wake.ts';
import type { SecretBox } from '../security/crypto.ts';

export interface AppContext {
  config: Config;
  db: Db;
  /** Wakes the publishing workers once a post due now (or within a second) is committed. */
  waker: PublishWaker;
  box: SecretBox;
  /** The networks with their configured sides (OAuth providers, password logins), built once at start. */
  networks: NetworkRegistry;
  /** The running sandbox's emulators (`crier start --sandbox` only): its routes add comments and messages there. */
  sandbox?: SandboxControls;
}
